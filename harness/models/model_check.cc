// `onnxgate check-model` (see model_check.h).
#include "harness/models/model_check.h"

#include <map>

#include "conformance/op_schemas.h"
#include "golden/model_files.h"
#include "harness/compare.h"
#include "harness/models/model_feeds.h"
#include "harness/models/scratch_model.h"
#include "reports/format.h"

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
    const std::string claim_domain = c.domain == "ai.onnx" ? "" : c.domain;
    if (claim_domain == domain && c.op_type == op_type && version >= c.since_version &&
        version <= c.until_version) {
      return true;
    }
  }
  return false;
}

// Converts the model (a scratch copy beside copies of its external data), runs it and the
// original on the same generated inputs and compares every output.
void CheckConversion(const RuntimeUnderTest& runtime, const RuntimeUnderTest* reference,
                     const ModelCheckOptions& o, const LoadedModel* original_on_runtime,
                     ConversionCheckRecord* c) {
  StatusOr<ScratchModel> scratch =
      ConvertModelFile(o.model_path, static_cast<int>(c->target_opset));
  if (!scratch.ok()) {
    c->error = scratch.status().message();
    return;
  }
  c->converted = true;
  LoadOptions load;
  load.providers = o.eps;
  load.optimization_level = o.optimization_level;
  StatusOr<std::unique_ptr<LoadedModel>> on_runtime = runtime.Load(scratch->path(), load);
  if (!on_runtime.ok()) {
    c->error = "the converted model does not load: " + on_runtime.status().message();
    return;
  }
  c->loaded = true;

  std::unique_ptr<LoadedModel> original_on_reference;
  const LoadedModel* original = original_on_runtime;
  c->reference = runtime.name() + " (" + JoinStrings(o.eps, ",") + "), original opset";
  if (original == nullptr) {
    if (reference == nullptr) {
      c->error = "the original model does not load on the runtime and there is no reference";
      return;
    }
    LoadOptions ref_load;
    StatusOr<std::unique_ptr<LoadedModel>> loaded = reference->Load(o.model_path, ref_load);
    if (!loaded.ok()) {
      c->error = "the original model does not load on the reference either: " +
                 loaded.status().message();
      return;
    }
    original_on_reference = std::move(loaded).value();
    original = original_on_reference.get();
    c->reference = reference->name() + " (ref), original opset";
  }
  StatusOr<std::vector<NamedValue>> feeds =
      MakeModelFeeds(**on_runtime, o.model_path, FeedSource{{}, o.dims, o.seed});
  if (!feeds.ok()) {
    c->error = feeds.status().message();
    return;
  }
  StatusOr<std::vector<Value>> want = original->Run(*feeds);
  StatusOr<std::vector<Value>> got = (*on_runtime)->Run(*feeds);
  if (!want.ok() || !got.ok()) {
    c->error = "a differential run failed: " +
               (!want.ok() ? "original: " + want.status().message()
                           : "converted: " + got.status().message());
    return;
  }
  const std::vector<std::string> names = original->output_names();
  const std::vector<std::string> converted_names = (*on_runtime)->output_names();
  c->outputs_match = names == converted_names && want->size() == got->size();
  for (size_t i = 0; i < names.size() && i < got->size() && i < want->size(); ++i) {
    ValueComparison cmp = CompareValues((*got)[i], (*want)[i], Tolerance{});
    c->outputs_match = c->outputs_match && cmp.passed;
    c->output_summaries.push_back(names[i] + ": " + cmp.summary);
  }
}

}  // namespace

StatusOr<ModelCheckRecord> CheckModel(const RuntimeUnderTest& runtime,
                                      const RuntimeUnderTest* reference,
                                      const ModelCheckOptions& o) {
  if (o.eps.empty()) return InvalidArgument("check-model needs at least one EP");
  ONNXGATE_ASSIGN_OR_RETURN(ModelFileContents files, ReadModelFiles(o.model_path));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<ActiveOp> ops, ActiveOpsOfModel(o.model_path));
  std::map<std::pair<std::string, std::string>, int> versions;
  for (const ActiveOp& op : ops) versions[{op.domain, op.op_type}] = op.since_version;

  ModelCheckRecord check;
  check.model_path = o.model_path;
  check.model_sha256 = files.hashes.model_sha256;
  check.runtime_name = runtime.name();
  check.runtime_version = runtime.version();
  check.eps = o.eps;
  check.fallback = FallbackPolicyName(o.fallback);

  const AcceptedVersions accepted = runtime.accepted_versions();
  check.ir_version = files.ir_version;
  check.ir_accepted = accepted.ir.Contains(files.ir_version);
  check.ir_accepted_range = RangeText(accepted.ir);
  if (!check.ir_accepted) {
    check.problems.push_back("IR version " + std::to_string(files.ir_version) +
                             " is not accepted (the runtime accepts " + check.ir_accepted_range +
                             ")");
  }
  for (const auto& [domain, version] : files.opset_imports) {
    OpsetCheckRecord opset{domain, version, false, ""};
    if (auto it = accepted.opsets.find(domain); it != accepted.opsets.end()) {
      opset.accepted = it->second.Contains(version);
      opset.accepted_range = RangeText(it->second);
    }
    if (!opset.accepted) {
      check.problems.push_back(
          "opset " + (domain.empty() ? std::string("ai.onnx") : domain) + " " +
          std::to_string(version) + " is not accepted (the runtime accepts " +
          (opset.accepted_range.empty() ? std::string("none") : opset.accepted_range) + ")");
    }
    check.opsets.push_back(std::move(opset));
  }

  // Placements with fallback allowed, so every node shows where it would land; forbid is judged
  // below from them.
  LoadOptions load;
  load.providers = o.eps;
  load.optimization_level = o.optimization_level;
  StatusOr<std::unique_ptr<LoadedModel>> loaded = runtime.Load(o.model_path, load);
  check.loaded = loaded.ok();
  if (!loaded.ok()) {
    check.load_error = loaded.status().message();
    check.problems.push_back("the runtime cannot load it on " + JoinStrings(o.eps, ",") + ": " +
                             check.load_error);
    for (const ModelFileContents::Node& n : files.nodes) {
      auto v = versions.find({n.domain, n.op_type});
      check.nodes.push_back({n.name, n.op_type, n.domain, v == versions.end() ? 0 : v->second,
                             "", {}, false, false, ""});
    }
  } else {
    for (const NodePlacement& p : (*loaded)->placements()) {
      // A runtime that does not say a node's active version (an adapter) gets ONNX's.
      int since_version = p.since_version;
      if (since_version == 0) {
        const std::string domain = p.domain == "ai.onnx" ? "" : p.domain;
        auto v = versions.find({domain, p.op_type});
        if (v != versions.end()) since_version = v->second;
      }
      NodeCheckRecord node{p.node_name, p.op_type, p.domain, since_version, p.provider,
                           {}, p.provider != o.eps.front(), false, p.subgraph};
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
    CheckConversion(runtime, reference, o, loaded.ok() ? loaded->get() : nullptr, &conversion);
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
