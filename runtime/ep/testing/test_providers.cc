// The test-crash and test-hang providers: one Relu kernel each, wrong on purpose.
#include "runtime/ep/testing/test_providers.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

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

template <typename K>
Status RegisterRelu(KernelRegistry& registry) {
  KernelDef def;
  def.op_type = "Relu";
  def.since_version = 1;
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

}  // namespace onnxgate
