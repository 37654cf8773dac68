// A RuntimeUnderTest behind the plugin ABI: the C++ objects and the C views of them that the
// plugin owns until the runtime, the model or the outputs are released.
#include "runtime/plugin/plugin_export.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>

#include "runtime/plugin/plugin_values.h"

struct OnnxgateRuntime {
  std::unique_ptr<onnxgate::RuntimeUnderTest> runtime;
  std::string name;
  std::string version;
  bool needs_case_isolation = false;
  onnxgate::AcceptedVersions accepted;
  std::vector<std::string> domain_names;
  std::vector<OnnxgateOpsetRange> opset_ranges;
  std::vector<std::string> provider_names;
  std::vector<const char*> provider_views;
  // Claims per provider, made on first request and kept for the runtime's life.
  struct ClaimTable {
    std::vector<onnxgate::OpClaim> claims;
    std::deque<std::vector<int32_t>> types;
    std::deque<std::vector<OnnxgateTypeConstraint>> constraints;
    std::vector<OnnxgateClaim> views;
  };
  mutable std::mutex claims_mutex;
  mutable std::map<std::string, std::unique_ptr<ClaimTable>> claim_tables;
};

struct OnnxgateModel {
  std::unique_ptr<onnxgate::LoadedModel> model;
  // Declarations and their C views.
  struct Infos {
    std::vector<onnxgate::ValueInfo> infos;
    std::deque<std::vector<OnnxgateDim>> dims;
    std::vector<OnnxgateValueInfo> views;
  };
  Infos inputs;
  Infos outputs;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<OnnxgateOption> metadata_views;
  std::vector<onnxgate::NodePlacement> placements;
  std::deque<std::vector<OnnxgateDecline>> declines;
  std::vector<OnnxgatePlacement> placement_views;
  std::vector<const char*> subgraph_views;  // one per placement, NULL: the node runs alone
};

struct OnnxgateOutputs {
  std::vector<onnxgate::Value> values;
  std::vector<std::unique_ptr<onnxgate::AbiValue>> shown;
  std::vector<OnnxgateValue> views;
};

namespace onnxgate {

namespace {

RuntimeFactoryFunction g_factory = nullptr;

void SetStatus(OnnxgateStatus* status, const Status& st) {
  if (status == nullptr || st.ok()) return;
  status->code = static_cast<int32_t>(st.code());
  std::snprintf(status->message, sizeof(status->message), "%s", st.message().c_str());
}

// Runs `body`, turning an exception into an INTERNAL status.
template <typename T, typename Body>
T Guard(OnnxgateStatus* status, T on_error, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    SetStatus(status, Internal(std::string("exception: ") + e.what()));
  } catch (...) {
    SetStatus(status, Internal("unknown exception"));
  }
  return on_error;
}

int32_t KindCode(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kSequence: return ONNXGATE_VALUE_SEQUENCE;
    case Value::Kind::kOptional: return ONNXGATE_VALUE_OPTIONAL;
    default: return ONNXGATE_VALUE_TENSOR;
  }
}

void ShowInfos(std::vector<ValueInfo> infos, OnnxgateModel::Infos* out) {
  out->infos = std::move(infos);
  for (const ValueInfo& info : out->infos) {
    std::vector<OnnxgateDim>& dims = out->dims.emplace_back();
    for (const DeclaredDim& d : info.dims) {
      dims.push_back({d.size, d.symbol.empty() ? nullptr : d.symbol.c_str()});
    }
    out->views.push_back({info.name.c_str(), KindCode(info.kind),
                          static_cast<int32_t>(info.elem_type), info.has_shape ? 1 : 0, dims.size(),
                          dims.data()});
  }
}

FallbackPolicy PolicyOf(int32_t code) {
  switch (code) {
    case ONNXGATE_FALLBACK_FORBID: return FallbackPolicy::kForbid;
    case ONNXGATE_FALLBACK_WARN: return FallbackPolicy::kWarn;
    default: return FallbackPolicy::kAllow;
  }
}

OnnxgateRuntime* Create(const OnnxgateOption* options, size_t count, OnnxgateStatus* status) {
  return Guard<OnnxgateRuntime*>(status, nullptr, [&]() -> OnnxgateRuntime* {
    RuntimeOptions opts;
    for (size_t i = 0; i < count; ++i) {
      if (options[i].key == nullptr || options[i].value == nullptr) {
        SetStatus(status, InvalidArgument("runtime option " + std::to_string(i) + " is null"));
        return nullptr;
      }
      opts[options[i].key] = options[i].value;
    }
    if (g_factory == nullptr) {
      SetStatus(status, Internal("the plugin has no runtime factory"));
      return nullptr;
    }
    auto made = g_factory(opts);
    if (!made.ok()) {
      SetStatus(status, made.status());
      return nullptr;
    }
    auto r = std::make_unique<OnnxgateRuntime>();
    r->runtime = std::move(made).value();
    r->name = r->runtime->name();
    r->version = r->runtime->version();
    r->needs_case_isolation = r->runtime->NeedsCaseIsolation();
    r->accepted = r->runtime->accepted_versions();
    for (const auto& [domain, range] : r->accepted.opsets) r->domain_names.push_back(domain);
    for (const std::string& domain : r->domain_names) {
      const VersionRange& range = r->accepted.opsets[domain];
      r->opset_ranges.push_back({domain.c_str(), range.min, range.max});
    }
    r->provider_names = r->runtime->providers();
    for (const std::string& p : r->provider_names) r->provider_views.push_back(p.c_str());
    return r.release();
  });
}

void Destroy(OnnxgateRuntime* runtime) { delete runtime; }
const char* Name(const OnnxgateRuntime* r) { return r->name.c_str(); }
const char* Version(const OnnxgateRuntime* r) { return r->version.c_str(); }
int32_t NeedsCaseIsolation(const OnnxgateRuntime* r) { return r->needs_case_isolation ? 1 : 0; }
void IrVersions(const OnnxgateRuntime* r, int64_t* min, int64_t* max) {
  *min = r->accepted.ir.min;
  *max = r->accepted.ir.max;
}
size_t OpsetRanges(const OnnxgateRuntime* r, const OnnxgateOpsetRange** ranges) {
  *ranges = r->opset_ranges.data();
  return r->opset_ranges.size();
}
size_t Providers(const OnnxgateRuntime* r, const char* const** names) {
  *names = r->provider_views.data();
  return r->provider_views.size();
}

int32_t MaxIntraOpThreads(const OnnxgateRuntime* r, const char* provider, OnnxgateStatus* status) {
  return Guard<int32_t>(status, 0, [&]() -> int32_t {
    auto most = r->runtime->MaxIntraOpThreads(provider);
    if (!most.ok()) {
      SetStatus(status, most.status());
      return 0;
    }
    return *most;
  });
}

void ProviderAvailability(const OnnxgateRuntime* r, const char* provider, OnnxgateStatus* status) {
  Guard<int>(status, 0, [&] {
    SetStatus(status, r->runtime->ProviderAvailability(provider == nullptr ? "" : provider));
    return 0;
  });
}

size_t Claims(const OnnxgateRuntime* r, const char* provider, const OnnxgateClaim** claims,
              OnnxgateStatus* status) {
  return Guard<size_t>(status, 0, [&]() -> size_t {
    std::lock_guard<std::mutex> lock(r->claims_mutex);
    auto& table = r->claim_tables[provider];
    if (table == nullptr) {
      auto got = r->runtime->Claims(provider);
      if (!got.ok()) {
        r->claim_tables.erase(provider);
        SetStatus(status, got.status());
        return 0;
      }
      table = std::make_unique<OnnxgateRuntime::ClaimTable>();
      table->claims = std::move(got).value();
      for (const OpClaim& c : table->claims) {
        std::vector<OnnxgateTypeConstraint>& constraints = table->constraints.emplace_back();
        for (const TypeConstraint& tc : c.type_constraints) {
          std::vector<int32_t>& types = table->types.emplace_back();
          for (DataType t : tc.types) types.push_back(static_cast<int32_t>(t));
          constraints.push_back({tc.name.c_str(), types.data(), types.size()});
        }
        table->views.push_back({c.domain.c_str(), c.op_type.c_str(), c.since_version,
                                c.until_version, constraints.size(), constraints.data()});
      }
    }
    *claims = table->views.data();
    return table->views.size();
  });
}

OnnxgateModel* Load(const OnnxgateRuntime* r, const OnnxgateLoadOptions* abi,
                    OnnxgateStatus* status) {
  return Guard<OnnxgateModel*>(status, nullptr, [&]() -> OnnxgateModel* {
    if (abi == nullptr || abi->model_path == nullptr ||
        (abi->provider_count > 0 && abi->providers == nullptr)) {
      SetStatus(status, InvalidArgument("load options without a model path or providers"));
      return nullptr;
    }
    LoadOptions options;
    options.providers.clear();
    for (size_t i = 0; i < abi->provider_count; ++i) options.providers.push_back(abi->providers[i]);
    options.fallback = PolicyOf(abi->fallback);
    options.optimization_level = abi->optimization_level;
    options.intra_op_threads = abi->intra_op_threads;
    auto loaded = r->runtime->Load(abi->model_path, options);
    if (!loaded.ok()) {
      SetStatus(status, loaded.status());
      return nullptr;
    }
    auto m = std::make_unique<OnnxgateModel>();
    m->model = std::move(loaded).value();
    ShowInfos(m->model->inputs(), &m->inputs);
    ShowInfos(m->model->outputs(), &m->outputs);
    for (const auto& [key, value] : m->model->metadata()) m->metadata.emplace_back(key, value);
    for (const auto& [key, value] : m->metadata) {
      m->metadata_views.push_back({key.c_str(), value.c_str()});
    }
    m->placements = m->model->placements();
    for (const NodePlacement& p : m->placements) {
      std::vector<OnnxgateDecline>& declines = m->declines.emplace_back();
      for (const DeclineReason& d : p.declines) {
        declines.push_back({d.provider.c_str(), d.reason.c_str()});
      }
      m->placement_views.push_back({p.node_name.c_str(), p.op_type.c_str(), p.domain.c_str(),
                                    p.since_version, p.provider.c_str(), declines.size(),
                                    declines.data()});
      m->subgraph_views.push_back(p.subgraph.empty() ? nullptr : p.subgraph.c_str());
    }
    return m.release();
  });
}

void Unload(OnnxgateModel* model) { delete model; }
size_t PlacementSubgraphs(const OnnxgateModel* m, const char* const** subgraphs) {
  *subgraphs = m->subgraph_views.data();
  return m->subgraph_views.size();
}
size_t Inputs(const OnnxgateModel* m, const OnnxgateValueInfo** infos) {
  *infos = m->inputs.views.data();
  return m->inputs.views.size();
}
size_t Outputs(const OnnxgateModel* m, const OnnxgateValueInfo** infos) {
  *infos = m->outputs.views.data();
  return m->outputs.views.size();
}
size_t Metadata(const OnnxgateModel* m, const OnnxgateOption** entries) {
  *entries = m->metadata_views.data();
  return m->metadata_views.size();
}
size_t Placements(const OnnxgateModel* m, const OnnxgatePlacement** placements) {
  *placements = m->placement_views.data();
  return m->placement_views.size();
}

// The feeds as values, or why one cannot be read.
StatusOr<std::vector<NamedValue>> FeedsFromAbi(const OnnxgateNamedValue* feeds, size_t count) {
  if (count > 0 && feeds == nullptr) return InvalidArgument("feeds missing");
  std::vector<NamedValue> named;
  for (size_t i = 0; i < count; ++i) {
    const std::string name = feeds[i].name == nullptr ? "" : feeds[i].name;
    ONNXGATE_ASSIGN_OR_RETURN(Value value, ValueFromAbi(feeds[i].value, "feed '" + name + "'"));
    named.push_back({name, std::move(value)});
  }
  return named;
}

OnnxgateOutputs* Run(const OnnxgateModel* m, const OnnxgateNamedValue* feeds, size_t count,
                     OnnxgateStatus* status) {
  return Guard<OnnxgateOutputs*>(status, nullptr, [&]() -> OnnxgateOutputs* {
    auto converted = FeedsFromAbi(feeds, count);
    if (!converted.ok()) {
      SetStatus(status, converted.status());
      return nullptr;
    }
    const std::vector<NamedValue>& named = *converted;
    auto result = m->model->Run(named);
    if (!result.ok()) {
      SetStatus(status, result.status());
      return nullptr;
    }
    auto out = std::make_unique<OnnxgateOutputs>();
    out->values = std::move(result).value();
    for (const Value& v : out->values) {
      out->shown.push_back(std::make_unique<AbiValue>(v));
      out->views.push_back(out->shown.back()->get());
    }
    return out.release();
  });
}

// Each run's time: the runtime's own timed runs where it offers them, else its Run timed here,
// in the same process as the runtime, with the feeds converted once.
StatusOr<std::vector<double>> TimeRuns(const LoadedModel& model,
                                       const std::vector<NamedValue>& feeds, int64_t runs) {
  auto own = model.TimedRuns(feeds, runs);
  if (own.status().code() != StatusCode::kUnimplemented) return own;
  std::vector<double> times;
  times.reserve(static_cast<size_t>(runs));
  for (int64_t i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto out = model.Run(feeds);
    const auto end = std::chrono::steady_clock::now();
    if (!out.ok()) return out.status();
    times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return times;
}

void TimedRuns(const OnnxgateModel* m, const OnnxgateNamedValue* feeds, size_t count, int64_t runs,
               double* times_ms, OnnxgateStatus* status) {
  Guard<int>(status, 0, [&]() -> int {
    if (runs < 1 || times_ms == nullptr) {
      SetStatus(status, InvalidArgument("timed_runs needs runs >= 1 and an array for the times"));
      return 0;
    }
    auto named = FeedsFromAbi(feeds, count);
    if (!named.ok()) {
      SetStatus(status, named.status());
      return 0;
    }
    auto times = TimeRuns(*m->model, *named, runs);
    if (times.ok() && times->size() != static_cast<size_t>(runs)) {
      times = Internal("the runtime timed " + std::to_string(times->size()) + " runs of " +
                       std::to_string(runs));
    }
    if (!times.ok()) {
      SetStatus(status, times.status());
      return 0;
    }
    std::copy(times->begin(), times->end(), times_ms);
    return 0;
  });
}

size_t OutputValues(const OnnxgateOutputs* outputs, const OnnxgateValue** values) {
  *values = outputs->views.data();
  return outputs->views.size();
}
void ReleaseOutputs(OnnxgateOutputs* outputs) { delete outputs; }

OnnxgateRuntime* RefuseSecondFactory(const OnnxgateOption*, size_t, OnnxgateStatus* status) {
  SetStatus(status, Internal("ExportRuntime was called with two different factories"));
  return nullptr;
}

}  // namespace

const OnnxgatePluginApi* ExportRuntime(RuntimeFactoryFunction factory) {
  static const OnnxgatePluginApi api = [] {
    OnnxgatePluginApi a{};
    a.abi_version = ONNXGATE_PLUGIN_ABI_VERSION;
    a.struct_size = sizeof(OnnxgatePluginApi);
    a.create = Create;
    a.destroy = Destroy;
    a.name = Name;
    a.version = Version;
    a.ir_versions = IrVersions;
    a.opset_ranges = OpsetRanges;
    a.providers = Providers;
    a.max_intra_op_threads = MaxIntraOpThreads;
    a.claims = Claims;
    a.load = Load;
    a.unload = Unload;
    a.inputs = Inputs;
    a.outputs = Outputs;
    a.metadata = Metadata;
    a.placements = Placements;
    a.run = Run;
    a.output_values = OutputValues;
    a.release_outputs = ReleaseOutputs;
    a.provider_availability = ProviderAvailability;
    a.placement_subgraphs = PlacementSubgraphs;
    a.needs_case_isolation = NeedsCaseIsolation;
    a.timed_runs = TimedRuns;
    return a;
  }();
  static OnnxgatePluginApi refusing = [] {
    OnnxgatePluginApi a = api;
    a.create = RefuseSecondFactory;
    return a;
  }();
  static std::once_flag once;
  std::call_once(once, [factory] { g_factory = factory; });
  return g_factory == factory ? &api : &refusing;
}

}  // namespace onnxgate
