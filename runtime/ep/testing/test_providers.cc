// The test-crash, test-hang and test-broken-relu providers: a Relu kernel wrong on purpose.
#include "runtime/ep/testing/test_providers.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "runtime/onnx/domain.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

// Read through a volatile so the compiler cannot see that the write below goes to address 0.
int* volatile g_null_target = nullptr;

class CrashingRelu : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo&) {
    return std::unique_ptr<OpKernel>(new CrashingRelu());
  }
  Status Compute(KernelContext&) const override {
    *g_null_target = 1;   // a genuine segmentation fault
    std::raise(SIGSEGV);  // in case the page at 0 is mapped
    std::abort();
  }
};

class HangingRelu : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo&) {
    return std::unique_ptr<OpKernel>(new HangingRelu());
  }
  Status Compute(KernelContext&) const override {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
};

// Relu as the identity: right for x >= 0, wrong for every negative element.
class IdentityRelu : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo&) {
    return std::unique_ptr<OpKernel>(new IdentityRelu());
  }
  Status Compute(KernelContext& ctx) const override {
    const Tensor* x = ctx.input_tensor(0);
    if (x == nullptr) return InvalidArgument("Relu: X is missing");
    ctx.set_output(0, *x);
    return OkStatus();
  }
};

// The ref kernels (the built-in ref provider's registry) with every Relu version replaced by
// IdentityRelu.
Status RegisterRefWithBrokenRelu(KernelRegistry& registry) {
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> ref, BuiltinRefProvider());
  for (const KernelDef* def : ref->registry().All()) {
    KernelDef copy = *def;
    if (IsDefaultDomain(copy.domain) && copy.op_type == "Relu")
      copy.factory = FactoryOf<IdentityRelu>();
    ONNXGATE_RETURN_IF_ERROR(registry.Register(std::move(copy)));
  }
  return OkStatus();
}

template <typename K>
Status RegisterRelu(KernelRegistry& registry) {
  KernelDef def;
  def.op_type = "Relu";
  def.since_version = 1;
  // A fake for exercising crash and hang handling: it claims every Relu version ONNX knows.
  def.until_version = MaxOpset("");
  def.type_constraints = {{"T", NumericTypes()}};
  def.factory = FactoryOf<K>();
  return registry.Register(std::move(def));
}

}  // namespace

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestCrashProvider() {
  return RegistryProvider::Create(kTestCrashProviderName, RegisterRelu<CrashingRelu>);
}

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestHangProvider() {
  return RegistryProvider::Create(kTestHangProviderName, RegisterRelu<HangingRelu>);
}

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestBrokenReluProvider() {
  return RegistryProvider::Create(kTestBrokenReluProviderName, RegisterRefWithBrokenRelu);
}

std::vector<ProviderEntry> BuiltinAndTestProviderEntries() {
  std::vector<ProviderEntry> entries = BuiltinProviderEntries();
  entries.push_back({kTestCrashProviderName, CreateTestCrashProvider});
  entries.push_back({kTestHangProviderName, CreateTestHangProvider});
  entries.push_back({kTestBrokenReluProviderName, CreateTestBrokenReluProvider});
  return entries;
}

StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntimeWithTestProviders(
    const RuntimeOptions& options) {
  if (!options.empty()) {
    return InvalidArgument("the test providers' runtime takes no runtime options; got '" +
                           options.begin()->first + "'");
  }
  return CreateBuiltinRuntime(BuiltinAndTestProviderEntries());
}

}  // namespace onnxgate
