// Test kernels for session tests: just enough arithmetic and control flow to check results,
// placements, constants, subgraphs and errors.
#include "runtime/session/session_test_kernels.h"

#include <onnx/onnx_pb.h>

#include <cmath>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {
namespace testing_kernels {

namespace {

// Test kernels are fakes for exercising the session, not implementations of any op version's
// semantics: they claim every ai.onnx version the schema registry knows (a real, closed range;
// kernel_def.h forbids open ones).
int NewestOpset() { return MaxOpset(""); }

std::mutex g_seen_mutex;
std::vector<std::string> g_seen;

void RecordConstants(const KernelInfo& info) {
  std::lock_guard<std::mutex> lock(g_seen_mutex);
  for (size_t i = 0; i < info.num_inputs(); ++i) {
    if (const Tensor* t = info.constant_input(i)) {
      g_seen.push_back(info.op_type() + ":" + std::to_string(i) + "=" + t->DebugString());
    }
  }
}

// Elementwise float kernel; `fn` may fail on a value.
class UnaryKernel : public OpKernel {
 public:
  using Fn = std::function<StatusOr<float>(float)>;
  explicit UnaryKernel(Fn fn) : fn_(std::move(fn)) {}
  Status Compute(KernelContext& ctx) const override {
    const Tensor* x = ctx.input_tensor(0);
    if (x == nullptr) return InvalidArgument("input 0 is missing");
    Tensor y(DataType::kFloat, x->shape());
    for (int64_t i = 0; i < x->NumElements(); ++i) {
      ONNXGATE_ASSIGN_OR_RETURN(y.mutable_data<float>()[i], fn_(x->data<float>()[i]));
    }
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }

 private:
  Fn fn_;
};

// A + B where B has A's shape or as many elements as A's last dim (row broadcast).
class AddKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override {
    const Tensor* a = ctx.input_tensor(0);
    const Tensor* b = ctx.input_tensor(1);
    if (a == nullptr || b == nullptr) return InvalidArgument("Add needs two tensors");
    const int64_t n = a->NumElements(), m = b->NumElements();
    if (m == 0 || n % m != 0) return InvalidArgument("test Add cannot broadcast these shapes");
    Tensor c(DataType::kFloat, a->shape());
    for (int64_t i = 0; i < n; ++i) {
      c.mutable_data<float>()[i] = a->data<float>()[i] + b->data<float>()[i % m];
    }
    ctx.set_output(0, std::move(c));
    return OkStatus();
  }
};

class IdentityKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override {
    if (!ctx.has_input(0)) return InvalidArgument("Identity needs an input");
    ctx.set_output(0, *ctx.input(0));
    return OkStatus();
  }
};

class IfKernel : public OpKernel {
 public:
  IfKernel(std::shared_ptr<const SubgraphExecutor> then_branch,
           std::shared_ptr<const SubgraphExecutor> else_branch)
      : then_(std::move(then_branch)), else_(std::move(else_branch)) {}
  Status Compute(KernelContext& ctx) const override {
    const Tensor* cond = ctx.input_tensor(0);
    if (cond == nullptr || cond->dtype() != DataType::kBool || cond->NumElements() != 1) {
      return InvalidArgument("If needs one bool");
    }
    const SubgraphExecutor& branch = cond->data<bool>()[0] ? *then_ : *else_;
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<Value> outs, branch.Run({}, *ctx.scope()));
    if (outs.size() != ctx.num_outputs()) return InvalidArgument("branch output count differs");
    for (size_t i = 0; i < outs.size(); ++i) ctx.set_output(i, std::move(outs[i]));
    return OkStatus();
  }

 private:
  std::shared_ptr<const SubgraphExecutor> then_, else_;
};

class ConstantKernel : public OpKernel {
 public:
  explicit ConstantKernel(Tensor value) : value_(std::move(value)) {}
  Status Compute(KernelContext& ctx) const override {
    ctx.set_output(0, value_);
    return OkStatus();
  }

 private:
  Tensor value_;
};

class ProbeKernel : public OpKernel {
 public:
  ProbeKernel(std::vector<std::string> names, std::vector<std::string>* log)
      : names_(std::move(names)), log_(log) {}
  Status Compute(KernelContext& ctx) const override {
    for (const auto& n : names_) {
      log_->push_back(n + (ctx.scope()->Lookup(n) != nullptr ? "=live" : "=gone"));
    }
    ctx.set_output(0, *ctx.input(0));
    return OkStatus();
  }

 private:
  std::vector<std::string> names_;
  std::vector<std::string>* log_;
};

// A resident tensor of a test domain: a host tensor behind the interface.
class TestResident : public ResidentTensor {
 public:
  TestResident(const void* domain, std::string provider, Tensor t)
      : domain_(domain), provider_(std::move(provider)), t_(std::move(t)) {}
  const void* domain() const override { return domain_; }
  const std::string& provider() const override { return provider_; }
  DataType dtype() const override { return t_.dtype(); }
  const Shape& shape() const override { return t_.shape(); }
  StatusOr<Tensor> ToHost() const override { return t_.Clone(); }
  const Tensor& tensor() const { return t_; }

 private:
  const void* domain_;
  std::string provider_;
  Tensor t_;
};

// Negates input 0 (host or resident of its domain) into a resident output, logging
// "<node>:resident" or "<node>:host" for the input it got.
class ResidentNegKernel : public OpKernel {
 public:
  ResidentNegKernel(const void* domain, std::string provider, std::string node,
                    std::vector<std::string>* log)
      : domain_(domain), provider_(std::move(provider)), node_(std::move(node)), log_(log) {}
  const void* resident_domain() const override { return domain_; }
  Status Compute(KernelContext& ctx) const override {
    const Value* v = ctx.input(0);
    if (v == nullptr) return InvalidArgument("input 0 is missing");
    const bool resident = v->is_resident();
    if (resident && v->resident().domain() != domain_) return Internal("a foreign resident input");
    const Tensor& x =
        resident ? static_cast<const TestResident&>(v->resident()).tensor() : v->tensor();
    log_->push_back(node_ + (resident ? ":resident" : ":host"));
    Tensor y(DataType::kFloat, x.shape());
    for (int64_t i = 0; i < x.NumElements(); ++i) y.mutable_data<float>()[i] = -x.data<float>()[i];
    ctx.set_output(0, Value::FromResident(
                          std::make_shared<const TestResident>(domain_, provider_, std::move(y))));
    return OkStatus();
  }

 private:
  const void* domain_;
  std::string provider_;
  std::string node_;
  std::vector<std::string>* log_;
};

class SilentKernel : public OpKernel {
 public:
  Status Compute(KernelContext&) const override { return OkStatus(); }
};

KernelFactory FactoryFor(const std::string& op) {
  return [op](const KernelInfo& info) -> StatusOr<std::unique_ptr<OpKernel>> {
    RecordConstants(info);
    if (op == "Relu")
      return std::unique_ptr<OpKernel>(
          new UnaryKernel([](float x) -> StatusOr<float> { return x > 0 ? x : 0.f; }));
    if (op == "Neg")
      return std::unique_ptr<OpKernel>(
          new UnaryKernel([](float x) -> StatusOr<float> { return -x; }));
    if (op == "Sqrt") {
      return std::unique_ptr<OpKernel>(new UnaryKernel([](float x) -> StatusOr<float> {
        if (x < 0) return InvalidArgument("Sqrt of negative value " + std::to_string(x));
        return std::sqrt(x);
      }));
    }
    if (op == "Add") return std::unique_ptr<OpKernel>(new AddKernel());
    if (op == "Identity") return std::unique_ptr<OpKernel>(new IdentityKernel());
    if (op == "Constant") {
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<float> values, info.GetFloats("value_floats"));
      return std::unique_ptr<OpKernel>(new ConstantKernel(
          Tensor::FromVector<float>(Shape({static_cast<int64_t>(values.size())}), values)));
    }
    if (op == "If") {
      ONNXGATE_ASSIGN_OR_RETURN(auto then_branch, info.CompileSubgraph("then_branch"));
      ONNXGATE_ASSIGN_OR_RETURN(auto else_branch, info.CompileSubgraph("else_branch"));
      return std::unique_ptr<OpKernel>(new IfKernel(then_branch, else_branch));
    }
    return Internal("no test kernel for " + op);
  };
}

}  // namespace

std::vector<std::string> SeenConstants() {
  std::lock_guard<std::mutex> lock(g_seen_mutex);
  return g_seen;
}

void ClearSeenConstants() {
  std::lock_guard<std::mutex> lock(g_seen_mutex);
  g_seen.clear();
}

Status RegisterTestKernel(KernelRegistry& registry, const std::string& op,
                          const std::vector<DataType>& types) {
  KernelDef def;
  def.op_type = op;
  def.until_version = NewestOpset();
  // Identity's and If's constraint names changed across versions; they accept any type here.
  if (op != "Identity" && op != "If" && op != "Constant") def.type_constraints = {{"T", types}};
  def.factory = FactoryFor(op);
  return registry.Register(std::move(def));
}

std::shared_ptr<const ExecutionProvider> TestProvider(const std::string& name,
                                                      const std::vector<std::string>& ops) {
  auto p = RegistryProvider::Create(name, [&](KernelRegistry& r) {
    for (const auto& op : ops) ONNXGATE_RETURN_IF_ERROR(RegisterTestKernel(r, op));
    return OkStatus();
  });
  return p.ok() ? *p : nullptr;
}

std::shared_ptr<const ExecutionProvider> RefusingProvider(const std::string& name,
                                                          const std::string& op,
                                                          Status factory_status) {
  auto p = RegistryProvider::Create(name, [&](KernelRegistry& r) {
    KernelDef def;
    def.op_type = op;
    def.until_version = NewestOpset();
    def.factory = [factory_status](const KernelInfo&) -> StatusOr<std::unique_ptr<OpKernel>> {
      return factory_status;
    };
    return r.Register(std::move(def));
  });
  return p.ok() ? *p : nullptr;
}

std::shared_ptr<const ExecutionProvider> SilentProvider(const std::string& name,
                                                        const std::string& op) {
  auto p = RegistryProvider::Create(name, [&](KernelRegistry& r) {
    KernelDef def;
    def.op_type = op;
    def.until_version = NewestOpset();
    def.factory = [](const KernelInfo&) -> StatusOr<std::unique_ptr<OpKernel>> {
      return std::unique_ptr<OpKernel>(new SilentKernel());
    };
    return r.Register(std::move(def));
  });
  return p.ok() ? *p : nullptr;
}

std::shared_ptr<const ExecutionProvider> ProbeProvider(const std::string& name,
                                                       const std::string& op,
                                                       std::vector<std::string> names,
                                                       std::vector<std::string>* log) {
  auto p = RegistryProvider::Create(name, [&](KernelRegistry& r) {
    KernelDef def;
    def.op_type = op;
    def.until_version = NewestOpset();
    def.factory = [names, log](const KernelInfo&) -> StatusOr<std::unique_ptr<OpKernel>> {
      return std::unique_ptr<OpKernel>(new ProbeKernel(names, log));
    };
    return r.Register(std::move(def));
  });
  return p.ok() ? *p : nullptr;
}

namespace {

class ClaimingTestProvider : public ExecutionProvider {
 public:
  ClaimingTestProvider(std::shared_ptr<const ExecutionProvider> kernels,
                       std::function<std::vector<SubgraphClaim>(const SubgraphOffer&)> claim)
      : kernels_(std::move(kernels)), claim_(std::move(claim)) {}
  const std::string& name() const override { return kernels_->name(); }
  const KernelRegistry& registry() const override { return kernels_->registry(); }
  StatusOr<std::vector<SubgraphClaim>> ClaimSubgraphs(const SubgraphOffer& offer) const override {
    return claim_(offer);
  }

 private:
  std::shared_ptr<const ExecutionProvider> kernels_;
  std::function<std::vector<SubgraphClaim>(const SubgraphOffer&)> claim_;
};

}  // namespace

std::shared_ptr<const ExecutionProvider> ClaimingProvider(
    const std::string& name, const std::vector<std::string>& ops,
    std::function<std::vector<SubgraphClaim>(const SubgraphOffer&)> claim) {
  return std::make_shared<ClaimingTestProvider>(TestProvider(name, ops), std::move(claim));
}

std::shared_ptr<const ExecutionProvider> ResidentProvider(const std::string& name,
                                                          std::vector<std::string>* log) {
  auto domain = std::make_shared<int>(0);
  auto p = RegistryProvider::Create(name, [&](KernelRegistry& r) {
    KernelDef def;
    def.op_type = "Neg";
    def.until_version = NewestOpset();
    def.type_constraints = {{"T", {DataType::kFloat}}};
    def.factory = [domain, name,
                   log](const KernelInfo& info) -> StatusOr<std::unique_ptr<OpKernel>> {
      return std::unique_ptr<OpKernel>(
          new ResidentNegKernel(domain.get(), name, info.node().name(), log));
    };
    return r.Register(std::move(def));
  });
  return p.ok() ? *p : nullptr;
}

}  // namespace testing_kernels
}  // namespace onnxgate
