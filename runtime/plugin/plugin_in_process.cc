// The plugin ABI seen from onnxgate: dlmopen, the function table, and every call checked.
#include "runtime/plugin/plugin_in_process.h"

#include <dlfcn.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>

#include "runtime/plugin/plugin_facts.h"
#include "runtime/plugin/plugin_values.h"

namespace onnxgate {

namespace {

// The opened library and its function table; shared by the runtime and every model so that
// the library stays loaded while anything from it is alive.
struct PluginLibrary {
  std::string path;
  void* handle = nullptr;
  const OnnxgatePluginApi* api = nullptr;
  // The members of minor version 1.1, NULL where the plugin's table does not hold them.
  decltype(OnnxgatePluginApi::provider_availability) provider_availability = nullptr;
  decltype(OnnxgatePluginApi::placement_subgraphs) placement_subgraphs = nullptr;
  // The member of minor version 1.2, NULL where the table does not hold it.
  decltype(OnnxgatePluginApi::needs_case_isolation) needs_case_isolation = nullptr;
  // The member of minor version 1.3, NULL where the table does not hold it.
  decltype(OnnxgatePluginApi::timed_runs) timed_runs = nullptr;
  ~PluginLibrary() {
    if (handle != nullptr) dlclose(handle);
  }
  std::string Label() const { return "plugin " + path; }
};

// The status a plugin set, checked: a known code, and a message for every error.
Status FromAbi(OnnxgateStatus& status, const PluginLibrary& lib, const std::string& what) {
  status.message[ONNXGATE_PLUGIN_MESSAGE_SIZE - 1] = '\0';
  const std::string message = status.message;
  const std::string where = lib.Label() + ": " + what;
  switch (status.code) {
    case ONNXGATE_STATUS_OK: return OkStatus();
    case ONNXGATE_STATUS_INVALID_ARGUMENT:
    case ONNXGATE_STATUS_DATA_LOSS:
    case ONNXGATE_STATUS_NOT_FOUND:
    case ONNXGATE_STATUS_UNIMPLEMENTED:
    case ONNXGATE_STATUS_UNAVAILABLE:
    case ONNXGATE_STATUS_INTERNAL:
      if (message.empty()) {
        return Internal(where + " failed with status code " + std::to_string(status.code) +
                        " and no message (a fault of the plugin)");
      }
      break;
    default:
      return Internal(where + " failed with status code " + std::to_string(status.code) +
                      ", which the plugin ABI does not define: " + message);
  }
  // The codes are numbered as onnxgate's own StatusCode.
  return Status(static_cast<StatusCode>(status.code), where + ": " + message);
}

Status NullString(const PluginLibrary& lib, const std::string& what) {
  return Internal(lib.Label() + ": " + what + " is a null string");
}

// A NUL-terminated string of at most `max_bytes` bytes of valid UTF-8; the plugin's memory is
// not read past max_bytes + 1.
StatusOr<std::string> CopyString(const char* s, const PluginLibrary& lib, const std::string& what,
                                 size_t max_bytes = kMaxPluginNameBytes) {
  if (s == nullptr) return NullString(lib, what);
  std::string out(s, strnlen(s, max_bytes + 1));
  if (Status st = CheckPluginString(what, out, max_bytes); !st.ok()) {
    return Internal(lib.Label() + ": " + st.message());
  }
  return out;
}

// A provider's or the runtime's name: it may become a file name (a baseline, an expectations
// file), so it must pass the checks a name given on the command line passes.
StatusOr<std::string> CopyName(const char* s, const PluginLibrary& lib, const std::string& what,
                               const std::string& kind) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string name, CopyString(s, lib, what));
  if (Status st = CheckPluginName(kind, name); !st.ok()) {
    return Internal(lib.Label() + ": " + what + ": " + st.message());
  }
  return name;
}

// An array the plugin owns: a count without an array is a fault, and so is a count past
// `limit` (checked before any entry is read: a wild count must not walk through memory).
template <typename T>
Status CheckArray(const T* items, size_t count, const PluginLibrary& lib, const std::string& what,
                  size_t limit) {
  if (count > limit) {
    return Internal(lib.Label() + ": " + what + " gave " + std::to_string(count) +
                    " entries (at most " + std::to_string(limit) + ")");
  }
  if (count > 0 && items == nullptr) {
    return Internal(lib.Label() + ": " + what + " gave " + std::to_string(count) +
                    " entries and a null array");
  }
  return OkStatus();
}

// An op version or opset the plugin gave: 1 (0 where `allow_zero`) to kMaxPluginOpVersion.
Status CheckVersion(int64_t v, const PluginLibrary& lib, const std::string& what,
                    bool allow_zero = false) {
  if (v < (allow_zero ? 0 : 1) || v > kMaxPluginOpVersion) {
    return Internal(lib.Label() + ": " + what + " is " + std::to_string(v) + " (expected " +
                    (allow_zero ? "0" : "1") + " to " + std::to_string(kMaxPluginOpVersion) + ")");
  }
  return OkStatus();
}

StatusOr<std::vector<ValueInfo>> CopyInfos(const OnnxgateValueInfo* infos, size_t count,
                                           const PluginLibrary& lib, const std::string& what) {
  ONNXGATE_RETURN_IF_ERROR(CheckArray(infos, count, lib, what, kMaxPluginValueInfos));
  std::vector<ValueInfo> out;
  for (size_t i = 0; i < count; ++i) {
    const OnnxgateValueInfo& in = infos[i];
    const std::string item = what + " entry " + std::to_string(i);
    ValueInfo info;
    ONNXGATE_ASSIGN_OR_RETURN(info.name, CopyString(in.name, lib, item + " name"));
    switch (in.kind) {
      case ONNXGATE_VALUE_TENSOR: info.kind = Value::Kind::kTensor; break;
      case ONNXGATE_VALUE_SEQUENCE: info.kind = Value::Kind::kSequence; break;
      case ONNXGATE_VALUE_OPTIONAL: info.kind = Value::Kind::kOptional; break;
      default:
        return Internal(lib.Label() + ": " + item + " ('" + info.name + "') has value kind " +
                        std::to_string(in.kind));
    }
    if (!IsValidDataType(in.elem_type)) {
      return Internal(lib.Label() + ": " + item + " ('" + info.name + "') has element type " +
                      std::to_string(in.elem_type) + ", not an ONNX type");
    }
    info.elem_type = static_cast<DataType>(in.elem_type);
    info.has_shape = in.has_shape != 0;
    if (info.has_shape) {
      ONNXGATE_RETURN_IF_ERROR(
          CheckArray(in.dims, in.rank, lib, item + " dims", kMaxPluginDeclaredRank));
      for (size_t d = 0; d < in.rank; ++d) {
        DeclaredDim dim;
        dim.size = in.dims[d].size < 0 ? -1 : in.dims[d].size;
        if (in.dims[d].symbol != nullptr) {
          ONNXGATE_ASSIGN_OR_RETURN(dim.symbol,
                                    CopyString(in.dims[d].symbol, lib, item + " dim symbol"));
        }
        info.dims.push_back(dim);
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

// Feeds as the ABI shows them, valid while this lives.
struct AbiFeeds {
  explicit AbiFeeds(const std::vector<NamedValue>& feeds) {
    for (const NamedValue& feed : feeds) {
      shown.push_back(std::make_unique<AbiValue>(feed.value));
      named.push_back({feed.name.c_str(), shown.back()->get()});
    }
  }
  std::vector<std::unique_ptr<AbiValue>> shown;
  std::vector<OnnxgateNamedValue> named;
};

class PluginModel : public LoadedModel {
 public:
  PluginModel(std::shared_ptr<const PluginLibrary> lib, OnnxgateModel* model, std::string path)
      : lib_(std::move(lib)), model_(model), path_(std::move(path)) {}
  ~PluginModel() override { lib_->api->unload(model_); }

  // Copies what the model declares, so that later calls cannot see it change.
  Status ReadDeclarations() {
    const OnnxgatePluginApi& api = *lib_->api;
    const OnnxgateValueInfo* infos = nullptr;
    size_t n = api.inputs(model_, &infos);
    ONNXGATE_ASSIGN_OR_RETURN(inputs_, CopyInfos(infos, n, *lib_, "inputs of " + path_));
    infos = nullptr;
    n = api.outputs(model_, &infos);
    ONNXGATE_ASSIGN_OR_RETURN(outputs_, CopyInfos(infos, n, *lib_, "outputs of " + path_));
    const OnnxgateOption* entries = nullptr;
    n = api.metadata(model_, &entries);
    ONNXGATE_RETURN_IF_ERROR(
        CheckArray(entries, n, *lib_, "metadata of " + path_, kMaxPluginMetadata));
    for (size_t i = 0; i < n; ++i) {
      const std::string what = "metadata entry " + std::to_string(i) + " of " + path_;
      ONNXGATE_ASSIGN_OR_RETURN(std::string key, CopyString(entries[i].key, *lib_, what));
      ONNXGATE_ASSIGN_OR_RETURN(metadata_[key],
                                CopyString(entries[i].value, *lib_, what, kMaxPluginTextBytes));
    }
    const OnnxgatePlacement* placed = nullptr;
    n = api.placements(model_, &placed);
    ONNXGATE_RETURN_IF_ERROR(
        CheckArray(placed, n, *lib_, "placements of " + path_, kMaxPluginPlacements));
    for (size_t i = 0; i < n; ++i) {
      const OnnxgatePlacement& in = placed[i];
      const std::string what = "placement " + std::to_string(i) + " of " + path_;
      NodePlacement p;
      ONNXGATE_ASSIGN_OR_RETURN(p.node_name, CopyString(in.node_name, *lib_, what + " node"));
      ONNXGATE_ASSIGN_OR_RETURN(p.op_type, CopyString(in.op_type, *lib_, what + " op"));
      ONNXGATE_ASSIGN_OR_RETURN(p.domain, CopyString(in.domain, *lib_, what + " domain"));
      ONNXGATE_ASSIGN_OR_RETURN(p.provider,
                                CopyName(in.provider, *lib_, what + " provider", "provider"));
      ONNXGATE_RETURN_IF_ERROR(
          CheckVersion(in.since_version, *lib_, what + " since_version", /*allow_zero=*/true));
      p.since_version = static_cast<int>(in.since_version);
      ONNXGATE_RETURN_IF_ERROR(
          CheckArray(in.declines, in.decline_count, *lib_, what, kMaxPluginDeclines));
      for (size_t d = 0; d < in.decline_count; ++d) {
        DeclineReason r;
        ONNXGATE_ASSIGN_OR_RETURN(
            r.provider, CopyName(in.declines[d].provider, *lib_, what + " decline", "provider"));
        ONNXGATE_ASSIGN_OR_RETURN(r.reason, CopyString(in.declines[d].reason, *lib_,
                                                       what + " decline", kMaxPluginTextBytes));
        p.declines.push_back(std::move(r));
      }
      placements_.push_back(std::move(p));
    }
    return ReadSubgraphs();
  }

  // The subgraph of each placement, where the plugin's table has placement_subgraphs.
  Status ReadSubgraphs() {
    if (lib_->placement_subgraphs == nullptr) return OkStatus();
    const char* const* subgraphs = nullptr;
    const size_t n = lib_->placement_subgraphs(model_, &subgraphs);
    const std::string what = "placement_subgraphs of " + path_;
    if (n != placements_.size()) {
      return Internal(lib_->Label() + ": " + what + " gave " + std::to_string(n) + " entries for " +
                      std::to_string(placements_.size()) + " placements");
    }
    ONNXGATE_RETURN_IF_ERROR(CheckArray(subgraphs, n, *lib_, what, kMaxPluginPlacements));
    for (size_t i = 0; i < n; ++i) {
      if (subgraphs[i] == nullptr) continue;
      ONNXGATE_ASSIGN_OR_RETURN(
          placements_[i].subgraph,
          CopyString(subgraphs[i], *lib_, what + " entry " + std::to_string(i)));
    }
    return OkStatus();
  }

  std::vector<ValueInfo> inputs() const override { return inputs_; }
  std::vector<ValueInfo> outputs() const override { return outputs_; }
  std::map<std::string, std::string> metadata() const override { return metadata_; }
  std::vector<NodePlacement> placements() const override { return placements_; }

  StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const override {
    const AbiFeeds abi(feeds);
    const OnnxgatePluginApi& api = *lib_->api;
    OnnxgateStatus status{};
    OnnxgateOutputs* outputs = api.run(model_, abi.named.data(), abi.named.size(), &status);
    std::unique_ptr<OnnxgateOutputs, void (*)(OnnxgateOutputs*)> release(outputs,
                                                                         api.release_outputs);
    const std::string what = "running " + path_;
    ONNXGATE_RETURN_IF_ERROR(FromAbi(status, *lib_, what));
    if (outputs == nullptr) {
      return Internal(lib_->Label() + ": " + what + ": run returned no outputs and no error");
    }
    const OnnxgateValue* values = nullptr;
    const size_t n = api.output_values(outputs, &values);
    if (n != outputs_.size()) {
      return Internal(lib_->Label() + ": " + what + ": returned " + std::to_string(n) +
                      " outputs; the model has " + std::to_string(outputs_.size()));
    }
    ONNXGATE_RETURN_IF_ERROR(CheckArray(values, n, *lib_, what, kMaxPluginValueInfos));
    std::vector<Value> result;
    for (size_t i = 0; i < n; ++i) {
      const ValueInfo& declared = outputs_[i];
      const std::string output = lib_->Label() + ": " + what + ": output '" + declared.name + "'";
      ONNXGATE_ASSIGN_OR_RETURN(Value v, ValueFromAbi(values[i], output));
      if (declared.elem_type != DataType::kUndefined && v.elem_type() != declared.elem_type) {
        return Internal(output + " is of element type " + DataTypeShortName(v.elem_type()) +
                        " but the plugin declares " + DataTypeShortName(declared.elem_type));
      }
      result.push_back(std::move(v));
    }
    return result;
  }

  // The plugin's timed_runs (ABI 1.3); not offered where its table lacks it.
  StatusOr<std::vector<double>> TimedRuns(const std::vector<NamedValue>& feeds,
                                          int64_t runs) const override {
    if (lib_->timed_runs == nullptr) return Unimplemented("timed runs are not offered");
    const std::string what = "timing runs of " + path_;
    if (runs < 1) return InvalidArgument(lib_->Label() + ": " + what + ": runs must be >= 1");
    const AbiFeeds abi(feeds);
    std::vector<double> times(static_cast<size_t>(runs), -1.0);
    OnnxgateStatus status{};
    lib_->timed_runs(model_, abi.named.data(), abi.named.size(), runs, times.data(), &status);
    ONNXGATE_RETURN_IF_ERROR(FromAbi(status, *lib_, what));
    for (size_t i = 0; i < times.size(); ++i) {
      if (!std::isfinite(times[i]) || times[i] < 0.0) {
        return Internal(lib_->Label() + ": " + what + ": run " + std::to_string(i) +
                        " has no time (" + std::to_string(times[i]) +
                        " ms; a fault of the plugin)");
      }
    }
    return times;
  }

 private:
  std::shared_ptr<const PluginLibrary> lib_;
  OnnxgateModel* model_;
  std::string path_;
  std::vector<ValueInfo> inputs_;
  std::vector<ValueInfo> outputs_;
  std::map<std::string, std::string> metadata_;
  std::vector<NodePlacement> placements_;
};

class PluginRuntime : public RuntimeUnderTest {
 public:
  PluginRuntime(std::shared_ptr<const PluginLibrary> lib, OnnxgateRuntime* runtime)
      : lib_(std::move(lib)), runtime_(runtime) {}
  ~PluginRuntime() override { lib_->api->destroy(runtime_); }

  // Copies the runtime's fixed facts once.
  Status ReadFacts() {
    const OnnxgatePluginApi& api = *lib_->api;
    ONNXGATE_ASSIGN_OR_RETURN(name_, CopyName(api.name(runtime_), *lib_, "name()", "runtime"));
    ONNXGATE_ASSIGN_OR_RETURN(version_, CopyString(api.version(runtime_), *lib_, "version()"));
    api.ir_versions(runtime_, &accepted_.ir.min, &accepted_.ir.max);
    ONNXGATE_RETURN_IF_ERROR(CheckRange(accepted_.ir, "ir_versions()"));
    const OnnxgateOpsetRange* ranges = nullptr;
    size_t n = api.opset_ranges(runtime_, &ranges);
    ONNXGATE_RETURN_IF_ERROR(CheckArray(ranges, n, *lib_, "opset_ranges()", kMaxPluginOpsetRanges));
    for (size_t i = 0; i < n; ++i) {
      ONNXGATE_ASSIGN_OR_RETURN(std::string domain,
                                CopyString(ranges[i].domain, *lib_, "opset range domain"));
      const VersionRange range{ranges[i].min, ranges[i].max};
      ONNXGATE_RETURN_IF_ERROR(CheckRange(range, "opset range of '" + domain + "'"));
      accepted_.opsets[domain] = range;
    }
    const char* const* names = nullptr;
    n = api.providers(runtime_, &names);
    ONNXGATE_RETURN_IF_ERROR(CheckArray(names, n, *lib_, "providers()", kMaxPluginProviders));
    for (size_t i = 0; i < n; ++i) {
      ONNXGATE_ASSIGN_OR_RETURN(
          std::string provider,
          CopyName(names[i], *lib_, "providers() entry " + std::to_string(i), "provider"));
      providers_.push_back(std::move(provider));
    }
    return OkStatus();
  }

  Status CheckRange(const VersionRange& range, const std::string& what) const {
    if (range.min < 0 || range.max < range.min || range.max > kMaxPluginOpVersion) {
      return Internal(lib_->Label() + ": " + what + " gave " + std::to_string(range.min) + " to " +
                      std::to_string(range.max) + ", not a range of versions");
    }
    return OkStatus();
  }

  std::string name() const override { return name_; }
  std::string version() const override { return version_; }
  AcceptedVersions accepted_versions() const override { return accepted_; }
  std::vector<std::string> providers() const override { return providers_; }

  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                              const LoadOptions& options) const override {
    std::vector<const char*> providers;
    for (const std::string& p : options.providers) providers.push_back(p.c_str());
    OnnxgateLoadOptions abi{};
    abi.model_path = model_path.c_str();
    abi.providers = providers.data();
    abi.provider_count = providers.size();
    abi.fallback = options.fallback == FallbackPolicy::kForbid ? ONNXGATE_FALLBACK_FORBID
                   : options.fallback == FallbackPolicy::kWarn ? ONNXGATE_FALLBACK_WARN
                                                               : ONNXGATE_FALLBACK_ALLOW;
    abi.optimization_level = options.optimization_level;
    abi.intra_op_threads = options.intra_op_threads;
    OnnxgateStatus status{};
    OnnxgateModel* model = lib_->api->load(runtime_, &abi, &status);
    if (Status st = FromAbi(status, *lib_, "loading " + model_path); !st.ok()) {
      if (model != nullptr) lib_->api->unload(model);
      return st;
    }
    if (model == nullptr) {
      return Internal(lib_->Label() + ": loading " + model_path +
                      ": load returned no model and no error");
    }
    auto loaded = std::make_unique<PluginModel>(lib_, model, model_path);
    ONNXGATE_RETURN_IF_ERROR(loaded->ReadDeclarations());
    return std::unique_ptr<LoadedModel>(std::move(loaded));
  }

  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const override {
    OnnxgateStatus status{};
    const OnnxgateClaim* claims = nullptr;
    const std::string what = "claims of provider '" + provider + "'";
    const size_t n = lib_->api->claims(runtime_, provider.c_str(), &claims, &status);
    ONNXGATE_RETURN_IF_ERROR(FromAbi(status, *lib_, what));
    ONNXGATE_RETURN_IF_ERROR(CheckArray(claims, n, *lib_, what, kMaxPluginClaims));
    std::vector<OpClaim> out;
    for (size_t i = 0; i < n; ++i) {
      const OnnxgateClaim& in = claims[i];
      OpClaim claim;
      ONNXGATE_ASSIGN_OR_RETURN(claim.domain, CopyString(in.domain, *lib_, what + " domain"));
      ONNXGATE_ASSIGN_OR_RETURN(claim.op_type, CopyString(in.op_type, *lib_, what + " op"));
      const std::string versions = what + ": " + claim.op_type;
      ONNXGATE_RETURN_IF_ERROR(CheckVersion(in.since_version, *lib_, versions + " since_version"));
      ONNXGATE_RETURN_IF_ERROR(CheckVersion(in.until_version, *lib_, versions + " until_version"));
      if (in.until_version < in.since_version) {
        return Internal(lib_->Label() + ": " + versions + " claims versions " +
                        std::to_string(in.since_version) + " to " +
                        std::to_string(in.until_version));
      }
      claim.since_version = static_cast<int>(in.since_version);
      claim.until_version = static_cast<int>(in.until_version);
      ONNXGATE_RETURN_IF_ERROR(
          CheckArray(in.constraints, in.constraint_count, *lib_, what, kMaxPluginTypeConstraints));
      for (size_t c = 0; c < in.constraint_count; ++c) {
        const OnnxgateTypeConstraint& tc = in.constraints[c];
        TypeConstraint constraint;
        ONNXGATE_ASSIGN_OR_RETURN(constraint.name, CopyString(tc.name, *lib_, what + " type"));
        ONNXGATE_RETURN_IF_ERROR(
            CheckArray(tc.types, tc.type_count, *lib_, what, kMaxPluginConstraintTypes));
        for (size_t t = 0; t < tc.type_count; ++t) {
          if (!IsValidDataType(tc.types[t]) || tc.types[t] == 0) {
            return Internal(lib_->Label() + ": " + what + ": " + claim.op_type +
                            " claims element type " + std::to_string(tc.types[t]) +
                            ", not an ONNX type");
          }
          constraint.types.push_back(static_cast<DataType>(tc.types[t]));
        }
        claim.type_constraints.push_back(std::move(constraint));
      }
      out.push_back(std::move(claim));
    }
    return out;
  }

  StatusOr<int> MaxIntraOpThreads(const std::string& provider) const override {
    OnnxgateStatus status{};
    const int32_t most = lib_->api->max_intra_op_threads(runtime_, provider.c_str(), &status);
    ONNXGATE_RETURN_IF_ERROR(
        FromAbi(status, *lib_, "max_intra_op_threads of provider '" + provider + "'"));
    if (most < 1) {
      return Internal(lib_->Label() + ": provider '" + provider + "' can use " +
                      std::to_string(most) + " threads (at least 1)");
    }
    return static_cast<int>(most);
  }

  // OK where the plugin has no provider_availability; an UNAVAILABLE reason is kept as the
  // plugin wrote it (the SKIP message shows it), after the checks every string passes.
  Status ProviderAvailability(const std::string& provider) const override {
    if (lib_->provider_availability == nullptr) return OkStatus();
    OnnxgateStatus status{};
    lib_->provider_availability(runtime_, provider.c_str(), &status);
    const std::string what = "provider_availability of provider '" + provider + "'";
    Status st = FromAbi(status, *lib_, what);
    if (st.code() != StatusCode::kUnavailable) return st;
    const std::string reason = status.message;
    if (Status valid = CheckPluginString(what + ": the reason", reason, kMaxPluginTextBytes);
        !valid.ok()) {
      return Internal(lib_->Label() + ": " + valid.message());
    }
    return Unavailable(reason);
  }

  // False where the plugin has no needs_case_isolation (a table of version 1.0 or 1.1).
  bool NeedsCaseIsolation() const override {
    return lib_->needs_case_isolation != nullptr && lib_->needs_case_isolation(runtime_) != 0;
  }

 private:
  std::shared_ptr<const PluginLibrary> lib_;
  OnnxgateRuntime* runtime_;
  std::string name_;
  std::string version_;
  AcceptedVersions accepted_;
  std::vector<std::string> providers_;
};

// A member that a minor version appended: NULL where the plugin's table ends before it.
template <typename Fn>
Fn LaterMember(const OnnxgatePluginApi& api, Fn OnnxgatePluginApi::*member, size_t offset) {
  return api.struct_size >= offset + sizeof(Fn) ? api.*member : nullptr;
}

// The table's members by name, for checking that none is missing.
Status CheckTable(const PluginLibrary& lib) {
  const OnnxgatePluginApi& a = *lib.api;
  const std::pair<const char*, const void*> members[] = {
      {"create", reinterpret_cast<const void*>(a.create)},
      {"destroy", reinterpret_cast<const void*>(a.destroy)},
      {"name", reinterpret_cast<const void*>(a.name)},
      {"version", reinterpret_cast<const void*>(a.version)},
      {"ir_versions", reinterpret_cast<const void*>(a.ir_versions)},
      {"opset_ranges", reinterpret_cast<const void*>(a.opset_ranges)},
      {"providers", reinterpret_cast<const void*>(a.providers)},
      {"max_intra_op_threads", reinterpret_cast<const void*>(a.max_intra_op_threads)},
      {"claims", reinterpret_cast<const void*>(a.claims)},
      {"load", reinterpret_cast<const void*>(a.load)},
      {"unload", reinterpret_cast<const void*>(a.unload)},
      {"inputs", reinterpret_cast<const void*>(a.inputs)},
      {"outputs", reinterpret_cast<const void*>(a.outputs)},
      {"metadata", reinterpret_cast<const void*>(a.metadata)},
      {"placements", reinterpret_cast<const void*>(a.placements)},
      {"run", reinterpret_cast<const void*>(a.run)},
      {"output_values", reinterpret_cast<const void*>(a.output_values)},
      {"release_outputs", reinterpret_cast<const void*>(a.release_outputs)},
  };
  for (const auto& [name, fn] : members) {
    if (fn == nullptr) {
      return InvalidArgument(lib.Label() + ": the function table has no '" + name + "'");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<RuntimeUnderTest>> OpenPluginInProcess(const std::string& path,
                                                                const RuntimeOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return NotFound("plugin " + path + ": no such file");
  }
  auto lib = std::make_shared<PluginLibrary>();
  lib->path = path;
  // A path without a slash would make dlopen search the library path instead.
  const std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  // A namespace of its own: the plugin gets its own copy of every library it links (a
  // protobuf with its own descriptor pool, its own C++ runtime), so its ONNX protobuf classes
  // and onnxgate's cannot collide. Only the C ABI crosses between them.
  lib->handle = dlmopen(LM_ID_NEWLM, open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib->handle == nullptr) {
    const char* error = dlerror();
    return InvalidArgument(lib->Label() + ": cannot be loaded as a shared library: " +
                           (error != nullptr ? error : "unknown error"));
  }
  auto entry =
      reinterpret_cast<OnnxgatePluginApiFunction>(dlsym(lib->handle, ONNXGATE_PLUGIN_ENTRY_POINT));
  if (entry == nullptr) {
    return InvalidArgument(lib->Label() + ": not a plugin: it does not export " +
                           ONNXGATE_PLUGIN_ENTRY_POINT + "()");
  }
  lib->api = entry();
  if (lib->api == nullptr) {
    return InvalidArgument(lib->Label() + ": " + ONNXGATE_PLUGIN_ENTRY_POINT +
                           "() returned no function table");
  }
  if (lib->api->abi_version != ONNXGATE_PLUGIN_ABI_VERSION) {
    return InvalidArgument(lib->Label() + " is built for plugin ABI version " +
                           std::to_string(lib->api->abi_version) + "; this build loads version " +
                           std::to_string(ONNXGATE_PLUGIN_ABI_VERSION) + " only");
  }
  if (lib->api->struct_size < ONNXGATE_PLUGIN_API_SIZE_1_0) {
    return InvalidArgument(lib->Label() + ": its function table is " +
                           std::to_string(lib->api->struct_size) + " bytes; ABI version " +
                           std::to_string(ONNXGATE_PLUGIN_ABI_VERSION) + ".0 has " +
                           std::to_string(ONNXGATE_PLUGIN_API_SIZE_1_0));
  }
  ONNXGATE_RETURN_IF_ERROR(CheckTable(*lib));
  lib->provider_availability = LaterMember(*lib->api, &OnnxgatePluginApi::provider_availability,
                                           offsetof(OnnxgatePluginApi, provider_availability));
  lib->placement_subgraphs = LaterMember(*lib->api, &OnnxgatePluginApi::placement_subgraphs,
                                         offsetof(OnnxgatePluginApi, placement_subgraphs));
  lib->needs_case_isolation = LaterMember(*lib->api, &OnnxgatePluginApi::needs_case_isolation,
                                          offsetof(OnnxgatePluginApi, needs_case_isolation));
  lib->timed_runs = LaterMember(*lib->api, &OnnxgatePluginApi::timed_runs,
                                offsetof(OnnxgatePluginApi, timed_runs));

  std::vector<OnnxgateOption> abi_options;
  for (const auto& [key, value] : options) abi_options.push_back({key.c_str(), value.c_str()});
  OnnxgateStatus status{};
  OnnxgateRuntime* runtime = lib->api->create(abi_options.data(), abi_options.size(), &status);
  if (Status st = FromAbi(status, *lib, "create"); !st.ok()) {
    if (runtime != nullptr) lib->api->destroy(runtime);
    return st;
  }
  if (runtime == nullptr) {
    return Internal(lib->Label() + ": create returned no runtime and no error");
  }
  auto plugin = std::make_unique<PluginRuntime>(lib, runtime);
  ONNXGATE_RETURN_IF_ERROR(plugin->ReadFacts());
  return std::unique_ptr<RuntimeUnderTest>(std::move(plugin));
}

}  // namespace onnxgate
