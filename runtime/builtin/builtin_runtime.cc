// The built-in RuntimeUnderTest: providers created once per runtime (registries are built on
// first use, never per load), models loaded and compiled into sessions.
#include "runtime/builtin/builtin_runtime.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <mutex>
#include <optional>

#include "runtime/ep/ref/ref_provider.h"
#if ONNXGATE_WITH_DNNL
#include "runtime/ep/dnnl/dnnl_provider.h"
#endif
#if ONNXGATE_WITH_OPENCL
#include "runtime/ep/opencl/opencl_provider.h"
#endif
#include "runtime/model/model.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/optimizer/optimizer.h"
#include "runtime/session/session.h"

namespace onnxgate {

namespace {

// The declared type of `name` among `declared`; an undeclared one stays kUndefined.
ValueInfo InfoOf(const std::string& name,
                 const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& declared) {
  ValueInfo info;
  info.name = name;
  for (const onnx::ValueInfoProto& v : declared) {
    if (v.name() != name) continue;
    const onnx::TypeProto* type = &v.type();
    if (type->has_sequence_type()) {
      info.kind = Value::Kind::kSequence;
      type = &type->sequence_type().elem_type();
    } else if (type->has_optional_type()) {
      info.kind = Value::Kind::kOptional;
      type = &type->optional_type().elem_type();
      if (type->has_sequence_type()) type = &type->sequence_type().elem_type();
    }
    if (!type->has_tensor_type()) break;
    info.elem_type = static_cast<DataType>(type->tensor_type().elem_type());
    if (info.kind == Value::Kind::kTensor && type->tensor_type().has_shape()) {
      info.has_shape = true;
      for (const onnx::TensorShapeProto_Dimension& d : type->tensor_type().shape().dim()) {
        DeclaredDim dim;
        if (d.has_dim_value()) dim.size = d.dim_value();
        if (d.has_dim_param()) dim.symbol = d.dim_param();
        info.dims.push_back(dim);
      }
    }
    break;
  }
  return info;
}

class BuiltinLoadedModel : public LoadedModel {
 public:
  explicit BuiltinLoadedModel(std::unique_ptr<const Session> session)
      : session_(std::move(session)) {}
  std::vector<ValueInfo> inputs() const override {
    std::vector<ValueInfo> infos;
    for (const std::string& name : session_->input_names()) {
      infos.push_back(InfoOf(name, session_->model().graph().input()));
    }
    return infos;
  }
  std::vector<ValueInfo> outputs() const override {
    std::vector<ValueInfo> infos;
    for (const std::string& name : session_->output_names()) {
      infos.push_back(InfoOf(name, session_->model().graph().output()));
    }
    return infos;
  }
  std::map<std::string, std::string> metadata() const override {
    std::map<std::string, std::string> props;
    for (const auto& entry : session_->model().proto().metadata_props()) {
      props[entry.key()] = entry.value();
    }
    return props;
  }
  StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const override {
    return session_->Run(feeds);
  }
  std::vector<NodePlacement> placements() const override { return session_->placements(); }

 private:
  std::unique_ptr<const Session> session_;
};

class BuiltinRuntime : public RuntimeUnderTest {
 public:
  BuiltinRuntime(std::vector<ProviderEntry> entries, ModelOptions model_options)
      : model_options_(model_options) {
    for (auto& e : entries) slots_.push_back(std::make_unique<Slot>(std::move(e)));
  }

  std::string name() const override { return "onnxgate"; }

  std::string version() const override {
    return std::string(ONNXGATE_VERSION) + " (ONNX " + OnnxReleaseVersion() + ")";
  }

  AcceptedVersions accepted_versions() const override {
    AcceptedVersions accepted;
    accepted.ir = {1, MaxIrVersion()};
    for (const std::string& domain : KnownDomains())
      accepted.opsets[domain] = {1, MaxOpset(domain)};
    return accepted;
  }

  std::vector<std::string> providers() const override {
    std::vector<std::string> names;
    for (const auto& s : slots_) {
      names.push_back(s->entry.name);
    }
    return names;
  }

  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                              const LoadOptions& options) const override {
    if (options.providers.empty()) {
      return InvalidArgument("loading " + model_path + ": no execution provider requested");
    }
    if (options.intra_op_threads < 0) {
      return InvalidArgument("loading " + model_path + ": intra_op_threads must not be negative");
    }
    std::vector<std::shared_ptr<const ExecutionProvider>> providers;
    for (size_t i = 0; i < options.providers.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (options.providers[i] == options.providers[j]) {
          return InvalidArgument("loading " + model_path + ": provider '" + options.providers[i] +
                                 "' is requested twice");
        }
      }
      auto provider = Provider(options.providers[i]);
      if (!provider.ok()) return provider.status().WithContext("loading " + model_path);
      if (Status st = CheckThreads(**provider, options.intra_op_threads); !st.ok()) {
        return st.WithContext("loading " + model_path);
      }
      // A provider whose kernels parallelise is set up for the session's thread count.
      if (options.intra_op_threads > 1) {
        auto configured = (*provider)->ForIntraOpThreads(options.intra_op_threads);
        if (!configured.ok()) return configured.status().WithContext("loading " + model_path);
        if (*configured != nullptr) provider = std::move(configured);
      }
      providers.push_back(std::move(provider).value());
    }
    // The fallback (decision, docs/architecture.md): a node no requested provider takes runs on
    // ref, the oracle, placed last, so a load asking for an accelerator runs whole models and
    // the placement shows which nodes fell back. Under FallbackPolicy::kForbid the session
    // refuses such a node instead, naming it, the requested provider's reason and 'ref'. ref runs
    // on the calling thread; its nodes are not held to intra_op_threads (the placement shows
    // them).
    if (std::find(options.providers.begin(), options.providers.end(), kRefProviderName) ==
            options.providers.end() &&
        Offers(kRefProviderName)) {
      auto ref = Provider(kRefProviderName);
      if (!ref.ok()) return ref.status().WithContext("loading " + model_path);
      providers.push_back(std::move(ref).value());
    }
    ONNXGATE_ASSIGN_OR_RETURN(
        std::shared_ptr<const Model> model,
        options.model_bytes != nullptr
            ? Model::FromFileBytes(model_path, *options.model_bytes, model_options_)
            : Model::Load(model_path, model_options_));
    if (options.optimization_level >= 1 && options.optimization_level <= kMaxOptimizationLevel) {
      OptimizerOptions optimizer;  // folds constants on ref, as the oracle computes them
      optimizer.level = options.optimization_level;
      optimizer.model_options = model_options_;
      // This runtime's ref, built once before workers fork, rather than one built per process.
      if (Offers(kRefProviderName)) {
        if (auto ref = Provider(kRefProviderName); ref.ok()) optimizer.fold_provider = *ref;
      }
      ONNXGATE_ASSIGN_OR_RETURN(model, OptimizeModel(std::move(model), optimizer));
    }
    SessionOptions session_options;
    session_options.fallback = options.fallback;
    session_options.optimization_level = options.optimization_level;
    ONNXGATE_ASSIGN_OR_RETURN(
        std::unique_ptr<const Session> session,
        Session::Create(std::move(model), std::move(providers), session_options));
    return std::unique_ptr<LoadedModel>(new BuiltinLoadedModel(std::move(session)));
  }

  StatusOr<int> MaxIntraOpThreads(const std::string& provider_name) const override {
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> provider,
                              Provider(provider_name));
    return provider->max_intra_op_threads();
  }

  // A provider whose factory says Unavailable (the opencl provider without an OpenCL device) is
  // unavailable; the factory runs once per runtime, so this costs nothing after the first call.
  bool ReadsOnnxText() const override { return true; }
  Status ProviderAvailability(const std::string& provider_name) const override {
    if (!Offers(provider_name)) return OkStatus();  // Load names the unknown provider
    auto provider = Provider(provider_name);
    if (!provider.ok() && provider.status().code() == StatusCode::kUnavailable) {
      return provider.status();
    }
    return OkStatus();
  }

  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider_name) const override {
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> provider,
                              Provider(provider_name));
    std::vector<OpClaim> claims;
    for (const KernelDef* def : provider->registry().All()) {
      claims.push_back(OpClaim{def->domain, def->op_type, def->since_version, def->until_version,
                               def->type_constraints});
    }
    return claims;
  }

 private:
  static Status CheckThreads(const ExecutionProvider& provider, int requested) {
    const int most = provider.max_intra_op_threads();
    if (requested <= most) return OkStatus();
    return InvalidArgument("provider '" + provider.name() + "' cannot use " +
                           std::to_string(requested) + " intra-op threads (" +
                           (most == 1 ? std::string("it runs every op on the calling thread")
                                      : "at most " + std::to_string(most)) +
                           "); refusing rather than measuring fewer threads than asked");
  }

  bool Offers(const std::string& name) const {
    for (const auto& s : slots_) {
      if (s->entry.name == name) return true;
    }
    return false;
  }

  struct Slot {
    explicit Slot(ProviderEntry e) : entry(std::move(e)) {}
    ProviderEntry entry;
    std::once_flag once;
    std::optional<StatusOr<std::shared_ptr<const ExecutionProvider>>> provider;
  };

  // The provider named `name`, created on the first request (thread-safe) and kept.
  StatusOr<std::shared_ptr<const ExecutionProvider>> Provider(const std::string& name) const {
    Slot* found = nullptr;
    for (const auto& s : slots_) {
      if (s->entry.name != name) continue;
      if (found != nullptr) return Internal("two providers are named '" + name + "'");
      found = s.get();
    }
    if (found == nullptr) {
      std::string known;
      for (const std::string& n : providers()) known += (known.empty() ? "" : ", ") + n;
      return InvalidArgument("unknown execution provider '" + name +
                             "'; this runtime offers: " + (known.empty() ? "none" : known));
    }
    Slot& slot = *found;
    std::call_once(slot.once, [&slot] {
      auto p = slot.entry.create ? slot.entry.create()
                                 : StatusOr<std::shared_ptr<const ExecutionProvider>>(
                                       Internal("no factory for provider " + slot.entry.name));
      if (p.ok() && *p == nullptr) {
        p = Internal("the factory of " + slot.entry.name + " returned null");
      }
      if (p.ok() && (*p)->name() != slot.entry.name) {
        p = Internal("provider entry '" + slot.entry.name + "' created a provider named '" +
                     (*p)->name() + "'");
      }
      slot.provider = std::move(p);
    });
    return *slot.provider;
  }

  ModelOptions model_options_;
  std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace

StatusOr<std::shared_ptr<const ExecutionProvider>> BuiltinRefProvider() {
  static const StatusOr<std::shared_ptr<const ExecutionProvider>> ref = CreateRefProvider();
  return ref;
}

std::vector<ProviderEntry> BuiltinProviderEntries() {
  std::vector<ProviderEntry> entries;
  entries.push_back({kRefProviderName, BuiltinRefProvider});
  // Providers behind CMake options are added the same way, each inside the #if its option
  // defines; ref stays first, the default --ep.
#if ONNXGATE_WITH_DNNL
  entries.push_back({kDnnlProviderName, []() -> StatusOr<std::shared_ptr<const ExecutionProvider>> {
                       ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> ref,
                                                 BuiltinRefProvider());
                       return CreateDnnlProvider(std::move(ref));
                     }});
#endif
#if ONNXGATE_WITH_OPENCL
  entries.push_back({kOpenClProviderName, CreateOpenClProvider});
#endif
  return entries;
}

std::unique_ptr<RuntimeUnderTest> CreateBuiltinRuntime() {
  return CreateBuiltinRuntime(BuiltinProviderEntries());
}

StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateBuiltinRuntimeFromOptions(
    const RuntimeOptions& options) {
  if (!options.empty()) {
    return InvalidArgument("the built-in runtime takes no runtime options; got '" +
                           options.begin()->first + "'");
  }
  return CreateBuiltinRuntime();
}

std::unique_ptr<RuntimeUnderTest> CreateBuiltinRuntime(std::vector<ProviderEntry> entries,
                                                       ModelOptions model_options) {
  return std::make_unique<BuiltinRuntime>(std::move(entries), model_options);
}

}  // namespace onnxgate
