// The test-crash, test-hang, test-broken-relu, test-memory-hog and test-corrupt-state providers: a
// Relu kernel wrong on purpose.
#include "runtime/ep/testing/test_providers.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cfenv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

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

// Allocates and keeps memory until an allocation fails or `cap_bytes` are taken.
class MemoryHogRelu : public OpKernel {
 public:
  explicit MemoryHogRelu(size_t cap_bytes) : cap_bytes_(cap_bytes) {}
  Status Compute(KernelContext&) const override {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    std::vector<std::unique_ptr<char[]>> kept;
    for (size_t taken = 0; taken < cap_bytes_; taken += kTestMemoryHogChunkBytes) {
      kept.emplace_back(new char[kTestMemoryHogChunkBytes]);  // std::bad_alloc leaves here
      // Volatile writes: the pages are really touched, and the allocation cannot be elided.
      volatile char* chunk = kept.back().get();
      for (size_t at = 0; at < kTestMemoryHogChunkBytes; at += page) chunk[at] = 1;
    }
    return Internal(std::string(kTestMemoryHogProviderName) + ": allocated " + Size(cap_bytes_) +
                    " without reaching a memory limit");
  }

 private:
  static std::string Size(size_t bytes) {
    constexpr size_t kGiB = size_t{1} << 30;
    return bytes % kGiB == 0 ? std::to_string(bytes / kGiB) + " GiB"
                             : std::to_string(bytes >> 20) + " MiB";
  }
  size_t cap_bytes_;
};

// Everything test-corrupt-state leaves behind (test_providers.h lists it).
Status CorruptProcessState() {
  std::fesetround(FE_UPWARD);
#if defined(__x86_64__)
  constexpr unsigned kDenormalsAreZero = 1u << 6;
  constexpr unsigned kFlushToZero = 1u << 15;
  _mm_setcsr(_mm_getcsr() | kDenormalsAreZero | kFlushToZero);
#endif
  setenv(kTestCorruptedStateVariable, "1", 1);
  if (chdir("/") != 0) return Internal("test-corrupt-state: cannot change directory to /");
  umask(0777);
  sigset_t blocked;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR1);
  sigaddset(&blocked, SIGALRM);
  sigprocmask(SIG_BLOCK, &blocked, nullptr);
  return OkStatus();
}

// Ref's Relu, then CorruptProcessState.
class StateCorruptingRelu : public OpKernel {
 public:
  explicit StateCorruptingRelu(std::unique_ptr<OpKernel> relu) : relu_(std::move(relu)) {}
  Status Compute(KernelContext& ctx) const override {
    ONNXGATE_RETURN_IF_ERROR(relu_->Compute(ctx));
    return CorruptProcessState();
  }

 private:
  std::unique_ptr<OpKernel> relu_;
};

bool IsRelu(const KernelDef& def) { return IsDefaultDomain(def.domain) && def.op_type == "Relu"; }

// The ref kernels (the built-in ref provider's registry) with every Relu version replaced by
// IdentityRelu.
Status RegisterRefWithBrokenRelu(KernelRegistry& registry) {
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> ref, BuiltinRefProvider());
  for (const KernelDef* def : ref->registry().All()) {
    KernelDef copy = *def;
    if (IsRelu(copy)) copy.factory = FactoryOf<IdentityRelu>();
    ONNXGATE_RETURN_IF_ERROR(registry.Register(std::move(copy)));
  }
  return OkStatus();
}

// Ref's Relu kernels alone, each wrapped in StateCorruptingRelu.
Status RegisterStateCorruptingRelu(KernelRegistry& registry) {
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const ExecutionProvider> ref, BuiltinRefProvider());
  for (const KernelDef* def : ref->registry().All()) {
    if (!IsRelu(*def)) continue;
    KernelDef copy = *def;
    copy.factory =
        [relu = def->factory](const KernelInfo& info) -> StatusOr<std::unique_ptr<OpKernel>> {
      ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> kernel, relu(info));
      return std::unique_ptr<OpKernel>(new StateCorruptingRelu(std::move(kernel)));
    };
    ONNXGATE_RETURN_IF_ERROR(registry.Register(std::move(copy)));
  }
  return OkStatus();
}

// A fake for exercising crash, hang and memory handling: it claims every Relu version ONNX knows.
Status RegisterRelu(KernelRegistry& registry, KernelFactory factory) {
  KernelDef def;
  def.op_type = "Relu";
  def.since_version = 1;
  def.until_version = MaxOpset("");
  def.type_constraints = {{"T", NumericTypes()}};
  def.factory = std::move(factory);
  return registry.Register(std::move(def));
}

template <typename K>
Status RegisterRelu(KernelRegistry& registry) {
  return RegisterRelu(registry, FactoryOf<K>());
}

// The built-in runtime, saying that each of its cases needs a process of its own.
class CaseIsolatedRuntime : public RuntimeUnderTest {
 public:
  explicit CaseIsolatedRuntime(std::unique_ptr<RuntimeUnderTest> runtime)
      : runtime_(std::move(runtime)) {}
  std::string name() const override { return runtime_->name(); }
  std::string version() const override { return runtime_->version(); }
  AcceptedVersions accepted_versions() const override { return runtime_->accepted_versions(); }
  std::vector<std::string> providers() const override { return runtime_->providers(); }
  StatusOr<std::unique_ptr<LoadedModel>> Load(const std::string& model_path,
                                              const LoadOptions& options) const override {
    return runtime_->Load(model_path, options);
  }
  StatusOr<std::vector<OpClaim>> Claims(const std::string& provider) const override {
    return runtime_->Claims(provider);
  }
  StatusOr<int> MaxIntraOpThreads(const std::string& provider) const override {
    return runtime_->MaxIntraOpThreads(provider);
  }
  Status ProviderAvailability(const std::string& provider) const override {
    return runtime_->ProviderAvailability(provider);
  }
  Status PrepareWorkerSlots(int count) const override {
    return runtime_->PrepareWorkerSlots(count);
  }
  void EnterWorkerSlot(int slot) const override { runtime_->EnterWorkerSlot(slot); }
  bool LeaveWorkerSlot(int slot, bool clean) const override {
    return runtime_->LeaveWorkerSlot(slot, clean);
  }
  bool NeedsCaseIsolation() const override { return true; }
  bool ReadsOnnxText() const override { return runtime_->ReadsOnnxText(); }

 private:
  std::unique_ptr<RuntimeUnderTest> runtime_;
};

constexpr char kIsolationOption[] = "isolation";

// Whether `options` ask for case isolation: none, isolation=worker or isolation=case.
StatusOr<bool> CaseIsolationFromOptions(const RuntimeOptions& options) {
  bool case_isolation = false;
  for (const auto& [key, value] : options) {
    if (key != kIsolationOption) {
      return InvalidArgument(
          "the test providers' runtime takes no runtime options but isolation=worker or "
          "isolation=case; got '" +
          key + "'");
    }
    if (value != "worker" && value != "case") {
      return InvalidArgument(
          "the test providers' runtime option isolation is 'worker' or 'case'; "
          "got '" +
          value + "'");
    }
    case_isolation = value == "case";
  }
  return case_isolation;
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

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestMemoryHogProvider(size_t cap_bytes) {
  return RegistryProvider::Create(kTestMemoryHogProviderName, [cap_bytes](KernelRegistry& r) {
    return RegisterRelu(r, [cap_bytes](const KernelInfo&) -> StatusOr<std::unique_ptr<OpKernel>> {
      return std::unique_ptr<OpKernel>(new MemoryHogRelu(cap_bytes));
    });
  });
}

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestCorruptStateProvider() {
  return RegistryProvider::Create(kTestCorruptStateProviderName, RegisterStateCorruptingRelu);
}

std::vector<ProviderEntry> BuiltinAndTestProviderEntries() {
  std::vector<ProviderEntry> entries = BuiltinProviderEntries();
  entries.push_back({kTestCrashProviderName, CreateTestCrashProvider});
  entries.push_back({kTestHangProviderName, CreateTestHangProvider});
  entries.push_back({kTestBrokenReluProviderName, CreateTestBrokenReluProvider});
  entries.push_back({kTestMemoryHogProviderName, [] { return CreateTestMemoryHogProvider(); }});
  entries.push_back({kTestCorruptStateProviderName, CreateTestCorruptStateProvider});
  return entries;
}

StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntimeWithTestProviders(
    const RuntimeOptions& options) {
  ONNXGATE_ASSIGN_OR_RETURN(const bool case_isolation, CaseIsolationFromOptions(options));
  std::unique_ptr<RuntimeUnderTest> runtime = CreateBuiltinRuntime(BuiltinAndTestProviderEntries());
  if (!case_isolation) return runtime;
  return std::unique_ptr<RuntimeUnderTest>(new CaseIsolatedRuntime(std::move(runtime)));
}

}  // namespace onnxgate
