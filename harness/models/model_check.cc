// `onnxgate check-model` (see model_check.h).
#include "harness/models/model_check.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "conformance/op_schemas.h"
#include "harness/compare.h"
#include "harness/ep_target.h"
#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/models/model_worker.h"
#include "harness/models/scratch_model.h"
#include "harness/worker.h"
#include "reports/format.h"
#include "runtime/model/model_file.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

std::string RangeText(const VersionRange& r) {
  return std::to_string(r.min) + ".." + std::to_string(r.max);
}

// The op versions some provider of the runtime claims; nullopt when no provider says.
std::optional<std::vector<OpClaim>> ClaimsOfRuntime(const RuntimeUnderTest& runtime) {
  std::vector<OpClaim> all;
  bool known = false;
  for (const std::string& provider : runtime.providers()) {
    StatusOr<std::vector<OpClaim>> claims = runtime.Claims(provider);
    if (!claims.ok()) continue;
    known = true;
    all.insert(all.end(), claims->begin(), claims->end());
  }
  if (!known) return std::nullopt;
  return all;
}

bool Claimed(const std::vector<OpClaim>& claims, const std::string& domain,
             const std::string& op_type, int version) {
  for (const OpClaim& c : claims) {
    if (NormalizeDomain(c.domain) == domain && c.op_type == op_type && version >= c.since_version &&
        version <= c.until_version) {
      return true;
    }
  }
  return false;
}

// The second half of a conversion check, run in a worker: the converted model at
// `converted_path` loaded on the EPs asked for, the original (`file`, as read) on the runtime
// (when it loads there) or the reference, both run on the same generated inputs and every output
// compared.
void RunConversion(const RuntimeUnderTest& runtime, const RuntimeUnderTest* reference,
                   const ModelCheckOptions& o, const ModelFile& file,
                   const std::string& converted_path, bool original_loads,
                   ConversionCheckRecord* c) {
  LoadOptions load;
  load.providers = o.eps;
  load.optimization_level = o.optimization_level;
  SetWorkerBreadcrumb("loading the converted copy of " + o.model_path);
  StatusOr<std::unique_ptr<LoadedModel>> on_runtime = runtime.Load(converted_path, load);
  if (!on_runtime.ok()) {
    c->error = "the converted model does not load: " + on_runtime.status().message();
    return;
  }
  c->loaded = true;

  SetWorkerBreadcrumb("loading " + o.model_path);
  c->reference = runtime.name() + " (" + JoinStrings(o.eps, ",") + "), original opset";
  StatusOr<std::unique_ptr<LoadedModel>> original = Unavailable("not loaded");
  if (original_loads) {
    LoadOptions original_load = load;
    original_load.model_bytes = &file.bytes();
    original = LoadOnRuntime(runtime, o.model_path, original_load, &file);
    if (!original.ok()) {
      c->error = "the original model does not load again: " + original.status().message();
      return;
    }
  } else {
    if (reference == nullptr) {
      c->error = "the original model does not load on the runtime and there is no reference";
      return;
    }
    LoadOptions ref_load;
    ref_load.model_bytes = &file.bytes();
    original = LoadOnRuntime(*reference, o.model_path, ref_load, &file);
    if (!original.ok()) {
      c->error = "the original model does not load on the reference either: " +
                 original.status().message();
      return;
    }
    c->reference = reference->name() + " (ref), original opset";
  }
  StatusOr<std::vector<NamedValue>> feeds =
      MakeModelFeeds(**on_runtime, o.model_path, FeedSource{{}, o.dims, o.seed});
  if (!feeds.ok()) {
    c->error = feeds.status().message();
    return;
  }
  SetWorkerBreadcrumb("running " + o.model_path + " on " + c->reference);
  StatusOr<std::vector<Value>> want = (*original)->Run(*feeds);
  SetWorkerBreadcrumb("running the converted copy of " + o.model_path + " on " +
                      JoinStrings(o.eps, ","));
  StatusOr<std::vector<Value>> got = (*on_runtime)->Run(*feeds);
  if (!want.ok() || !got.ok()) {
    c->error =
        "a differential run failed: " + (!want.ok() ? "original: " + want.status().message()
                                                    : "converted: " + got.status().message());
    return;
  }
  const std::vector<std::string> names = (*original)->output_names();
  const std::vector<std::string> converted_names = (*on_runtime)->output_names();
  c->outputs_match = names == converted_names && want->size() == got->size();
  for (size_t i = 0; i < names.size() && i < got->size() && i < want->size(); ++i) {
    ValueComparison cmp = CompareValues((*got)[i], (*want)[i], Tolerance{});
    c->outputs_match = c->outputs_match && cmp.passed;
    c->output_summaries.push_back(names[i] + ": " + cmp.summary);
  }
}

// What RunConversion found, for the way back from its worker, and back.
std::string EncodeConversion(const ConversionCheckRecord& c) {
  const nlohmann::json j = {{"error", c.error},
                            {"loaded", c.loaded},
                            {"reference", c.reference},
                            {"outputs_match", c.outputs_match},
                            {"output_summaries", c.output_summaries}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Status DecodeConversion(const std::string& text, const std::string& source,
                        ConversionCheckRecord* c) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const Status garbled = DataLoss(source + ": the worker's result is garbled");
  if (!j.is_object()) return garbled;
  auto error = j.find("error"), loaded = j.find("loaded"), ref = j.find("reference"),
       match = j.find("outputs_match"), summaries = j.find("output_summaries");
  if (error == j.end() || !error->is_string() || loaded == j.end() || !loaded->is_boolean() ||
      ref == j.end() || !ref->is_string() || match == j.end() || !match->is_boolean() ||
      summaries == j.end() || !summaries->is_array()) {
    return garbled;
  }
  for (const nlohmann::json& line : *summaries) {
    if (!line.is_string()) return garbled;
    c->output_summaries.push_back(line.get<std::string>());
  }
  c->error = error->get<std::string>();
  c->loaded = loaded->get<bool>();
  c->reference = ref->get<std::string>();
  c->outputs_match = match->get<bool>();
  return OkStatus();
}

// Converts the model (a scratch copy beside copies of its external data, here), then runs it and
// the original on the same generated inputs in a worker and compares every output.
void CheckConversion(const RuntimeUnderTest& runtime, const RuntimeUnderTest* reference,
                     const ModelCheckOptions& o, const ModelFile& file, bool original_loads,
                     ModelWorker& worker, ConversionCheckRecord* c) {
  StatusOr<ScratchModel> scratch =
      ConvertModelFile(file, static_cast<int>(c->target_opset), ConversionWays::kBothWays);
  if (!scratch.ok()) {
    c->error = scratch.status().message();
    return;
  }
  c->converted = true;
  const std::string what = o.model_path + ": the differential run of the conversion";
  StatusOr<std::string> found = worker.RunText(what, [&]() -> StatusOr<std::string> {
    ConversionCheckRecord in_worker = *c;
    RunConversion(runtime, reference, o, file, scratch->path(), original_loads, &in_worker);
    return EncodeConversion(in_worker);
  });
  if (!found.ok()) {
    c->error = found.status().message();
    return;
  }
  if (Status read = DecodeConversion(*found, what, c); !read.ok()) c->error = read.message();
}

// Where each node of the model loaded on the EPs would run, for the way back from the load's
// worker, and back.
std::string EncodePlacements(const std::vector<NodePlacement>& placements) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const NodePlacement& p : placements) {
    nlohmann::json declines = nlohmann::json::array();
    for (const DeclineReason& d : p.declines) {
      declines.push_back({{"provider", d.provider}, {"reason", d.reason}});
    }
    nodes.push_back({{"node_name", p.node_name},
                     {"op_type", p.op_type},
                     {"domain", p.domain},
                     {"since_version", p.since_version},
                     {"provider", p.provider},
                     {"declines", std::move(declines)},
                     {"subgraph", p.subgraph}});
  }
  return nodes.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

StatusOr<std::vector<NodePlacement>> DecodePlacements(const std::string& text,
                                                      const std::string& source) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const Status garbled = DataLoss(source + ": the worker's placements are garbled");
  if (!j.is_array()) return garbled;
  auto string_of = [](const nlohmann::json& o, const char* key, std::string* out) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return false;
    *out = it->get<std::string>();
    return true;
  };
  std::vector<NodePlacement> placements;
  for (const nlohmann::json& n : j) {
    NodePlacement p;
    if (!n.is_object() || !string_of(n, "node_name", &p.node_name) ||
        !string_of(n, "op_type", &p.op_type) || !string_of(n, "domain", &p.domain) ||
        !string_of(n, "provider", &p.provider) || !string_of(n, "subgraph", &p.subgraph)) {
      return garbled;
    }
    auto version = n.find("since_version");
    auto declines = n.find("declines");
    if (version == n.end() || !version->is_number_integer() || declines == n.end() ||
        !declines->is_array()) {
      return garbled;
    }
    p.since_version = version->get<int>();
    for (const nlohmann::json& d : *declines) {
      DeclineReason reason;
      if (!d.is_object() || !string_of(d, "provider", &reason.provider) ||
          !string_of(d, "reason", &reason.reason)) {
        return garbled;
      }
      p.declines.push_back(std::move(reason));
    }
    placements.push_back(std::move(p));
  }
  return placements;
}

// The model (`file`, as read) loaded on the EPs, in a worker: where each node would run.
StatusOr<std::vector<NodePlacement>> PlacementsInWorker(const RuntimeUnderTest& runtime,
                                                        const ModelCheckOptions& o,
                                                        const ModelFile& file,
                                                        ModelWorker& worker) {
  const std::string what = o.model_path + ": the load on " + JoinStrings(o.eps, ",");
  StatusOr<std::string> text = worker.RunText(what, [&]() -> StatusOr<std::string> {
    LoadOptions load;
    load.providers = o.eps;
    load.optimization_level = o.optimization_level;
    load.model_bytes = &file.bytes();
    SetWorkerBreadcrumb("loading " + o.model_path + " on " + JoinStrings(o.eps, ","));
    ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> loaded,
                              LoadOnRuntime(runtime, o.model_path, load, &file));
    return EncodePlacements(loaded->placements());
  });
  if (!text.ok()) return text.status();
  return DecodePlacements(*text, what);
}

// The options with `eps` as one priority list: each --ep a provider or a '+'-joined list
// (harness/ep_target.h), in the order given; InvalidArgument for a malformed one, a provider
// named twice, or one the runtime does not offer.
StatusOr<ModelCheckOptions> WithOneProviderList(const RuntimeUnderTest& runtime,
                                                const ModelCheckOptions& given) {
  if (given.eps.empty()) return InvalidArgument("check-model needs at least one EP");
  ModelCheckOptions o = given;
  o.eps.clear();
  for (const std::string& ep : given.eps) {
    ONNXGATE_ASSIGN_OR_RETURN(EpTarget target, ParseEpTarget(ep));
    ONNXGATE_RETURN_IF_ERROR(CheckTargetOffered(runtime, target));
    for (const std::string& provider : target.providers) {
      if (std::find(o.eps.begin(), o.eps.end(), provider) != o.eps.end()) {
        return InvalidArgument("--ep names provider '" + provider + "' twice");
      }
      o.eps.push_back(provider);
    }
  }
  return o;
}

}  // namespace

StatusOr<ModelCheckRecord> CheckModel(const RuntimeUnderTest& runtime,
                                      const RuntimeUnderTest* reference,
                                      const ModelCheckOptions& given) {
  ONNXGATE_ASSIGN_OR_RETURN(const ModelCheckOptions o, WithOneProviderList(runtime, given));
  // The one read of the model file: its external data is hashed in pieces, never held.
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile file, ModelFile::Read(o.model_path));
  std::map<std::pair<std::string, std::string>, int> versions;
  for (const ActiveOp& op : ActiveOpsOfModel(file.proto())) {
    versions[{op.domain, op.op_type}] = op.since_version;
  }

  ModelCheckRecord check;
  check.model_path = o.model_path;
  check.model_sha256 = file.sha256();
  check.runtime_name = runtime.name();
  check.runtime_version = runtime.version();
  check.eps = o.eps;
  check.fallback = FallbackPolicyName(o.fallback);

  const AcceptedVersions accepted = runtime.accepted_versions();
  check.ir_version = file.ir_version();
  check.ir_accepted = accepted.ir.Contains(file.ir_version());
  check.ir_accepted_range = RangeText(accepted.ir);
  if (!check.ir_accepted) {
    check.problems.push_back("IR version " + std::to_string(file.ir_version()) +
                             " is not accepted (the runtime accepts " + check.ir_accepted_range +
                             ")");
  }
  for (const auto& [domain, version] : file.opset_imports()) {
    OpsetCheckRecord opset{domain, version, false, ""};
    if (auto it = accepted.opsets.find(domain); it != accepted.opsets.end()) {
      opset.accepted = it->second.Contains(version);
      opset.accepted_range = RangeText(it->second);
    }
    if (!opset.accepted) {
      check.problems.push_back(
          "opset " + DomainDisplayName(domain) + " " + std::to_string(version) +
          " is not accepted (the runtime accepts " +
          (opset.accepted_range.empty() ? std::string("none") : opset.accepted_range) + ")");
    }
    check.opsets.push_back(std::move(opset));
  }

  // Placements with fallback allowed, so every node shows where it would land; forbid is judged
  // below from them.
  ModelWorker worker(o.worker, {&runtime, reference});
  StatusOr<std::vector<NodePlacement>> loaded = PlacementsInWorker(runtime, o, file, worker);
  if (!loaded.ok() && worker.last_step_died() && StopRequested()) return loaded.status();
  check.loaded = loaded.ok();
  if (!loaded.ok()) {
    check.load_error = loaded.status().message();
    check.problems.push_back("the runtime cannot load it on " + JoinStrings(o.eps, ",") + ": " +
                             check.load_error);
    for (const ModelFile::Node& n : file.nodes()) {
      auto v = versions.find({n.domain, n.op_type});
      check.nodes.push_back({n.name,
                             n.op_type,
                             n.domain,
                             v == versions.end() ? 0 : v->second,
                             "",
                             {},
                             false,
                             false,
                             ""});
    }
  } else {
    for (const NodePlacement& p : *loaded) {
      // A runtime that does not say a node's active version (an adapter) gets ONNX's.
      int since_version = p.since_version;
      if (since_version == 0) {
        auto v = versions.find({NormalizeDomain(p.domain), p.op_type});
        if (v != versions.end()) since_version = v->second;
      }
      NodeCheckRecord node{p.node_name,
                           p.op_type,
                           p.domain,
                           since_version,
                           p.provider,
                           {},
                           p.provider != o.eps.front(),
                           false,
                           p.subgraph};
      for (const DeclineReason& d : p.declines) node.declines.push_back({d.provider, d.reason});
      check.nodes.push_back(std::move(node));
    }
  }
  if (const auto claims = ClaimsOfRuntime(runtime)) {
    for (NodeCheckRecord& n : check.nodes) {
      n.lacking = !Claimed(*claims, n.domain, n.op_type, n.since_version);
    }
  }
  for (const NodeCheckRecord& n : check.nodes) {
    const std::string op = NodeOpName(n);
    if (n.lacking) {
      check.problems.push_back("node '" + n.node_name + "': no provider of " + runtime.name() +
                               " claims " + op);
    } else if (n.falls_back && o.fallback == FallbackPolicy::kForbid) {
      std::string why;
      for (const NodeCheckRecord::Decline& d : n.declines) {
        why += (why.empty() ? "" : "; ") + d.provider + ": " + d.reason;
      }
      check.problems.push_back("node '" + n.node_name + "' (" + op + ") falls back to " +
                               n.provider + " (" + why + ")");
    }
  }

  if (o.target_opset) {
    ConversionCheckRecord conversion;
    conversion.target_opset = *o.target_opset;
    CheckConversion(runtime, reference, o, file, loaded.ok(), worker, &conversion);
    if (worker.last_step_died() && StopRequested()) return Aborted(conversion.error);
    if (!conversion.converted || !conversion.loaded || !conversion.error.empty()) {
      check.problems.push_back("conversion to opset " + std::to_string(*o.target_opset) + ": " +
                               conversion.error);
    } else if (!conversion.outputs_match) {
      check.problems.push_back("conversion to opset " + std::to_string(*o.target_opset) +
                               ": the converted model's outputs differ from the original's");
    }
    check.conversion = std::move(conversion);
  }
  return check;
}

}  // namespace onnxgate
