// The providers that misbehave on purpose do exactly what test_providers.h says: test-memory-hog
// runs into an address-space limit (or its own cap), test-corrupt-state computes Relu right and
// leaves each piece of state it lists changed, and the runtime's isolation option says whether
// each case needs a process of its own.
#include "runtime/ep/testing/test_providers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "runtime/base/child_process.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

std::string ReluModel() { return std::string(ONNXGATE_RUNTIME_TESTDATA_DIR) + "/relu.onnxtxt"; }

LoadOptions OnlyOn(const std::string& provider) {
  LoadOptions options;
  options.providers = {provider};
  options.fallback = FallbackPolicy::kForbid;
  return options;
}

Value Floats(std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>(Shape({1, 4}), v));
}

// Relu of one [1, 4] float tensor on `provider` of `runtime`.
StatusOr<std::vector<Value>> RunRelu(const RuntimeUnderTest& runtime, const std::string& provider,
                                     std::vector<float> x) {
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model,
                            runtime.Load(ReluModel(), OnlyOn(provider)));
  return model->Run({{"X", Floats(std::move(x))}});
}

std::unique_ptr<RuntimeUnderTest> TestRuntime() {
  auto runtime = CreateRuntimeWithTestProviders();
  EXPECT_TRUE(runtime.ok()) << runtime.status().ToString();
  return runtime.ok() ? std::move(runtime).value() : nullptr;
}

TEST(TestProvidersTest, TheNewProvidersClaimReluAlone) {
  auto runtime = TestRuntime();
  ASSERT_NE(runtime, nullptr);
  for (const char* provider : {kTestMemoryHogProviderName, kTestCorruptStateProviderName}) {
    auto claims = runtime->Claims(provider);
    ASSERT_TRUE(claims.ok()) << provider << ": " << claims.status().ToString();
    ASSERT_FALSE(claims->empty()) << provider;
    for (const OpClaim& claim : *claims) EXPECT_EQ(claim.op_type, "Relu") << provider;
  }
}

// The cap: a smaller one, so that the test stays cheap; the provider frees what it took.
TEST(TestProvidersTest, TheMemoryHogGivesUpAtItsCap) {
  std::vector<ProviderEntry> entries = BuiltinProviderEntries();
  entries.push_back({kTestMemoryHogProviderName,
                     [] { return CreateTestMemoryHogProvider(kTestMemoryHogChunkBytes * 2); }});
  auto runtime = CreateBuiltinRuntime(std::move(entries));
  auto out = RunRelu(*runtime, kTestMemoryHogProviderName, {1, 2, 3, 4});
  EXPECT_EQ(out.status().code(), StatusCode::kInternal);
  EXPECT_THAT(out.status().message(),
              HasSubstr("test-memory-hog: allocated 128 MiB without reaching a memory limit"));
}

// This process's address space now, from /proc/self/statm (its first field, in pages).
size_t AddressSpaceBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  statm >> pages;
  return pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// Under an address-space limit 512 MiB above what the process uses, an allocation fails long
// before the 4 GiB cap, and the std::bad_alloc leaves the kernel. In a child: the limit stays
// there.
TEST(TestProvidersTest, TheMemoryHogRunsIntoAnAddressSpaceLimit) {
  const ChildOutcome outcome = RunInChildProcess(
      [] {
        auto runtime = CreateRuntimeWithTestProviders();
        if (!runtime.ok()) return runtime.status().ToString();
        const rlimit limit{AddressSpaceBytes() + (size_t{512} << 20), RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &limit) != 0) return std::string("setrlimit failed");
        try {
          return RunRelu(**runtime, kTestMemoryHogProviderName, {1, 2, 3, 4}).status().ToString();
        } catch (const std::bad_alloc&) {
          return std::string("std::bad_alloc escaped the run");
        }
      },
      /*timeout_seconds=*/120);
  ASSERT_EQ(outcome.end, ChildOutcome::End::kExited) << outcome.error;
  ASSERT_EQ(outcome.exit_code, 0);
  EXPECT_THAT(outcome.output, HasSubstr("bad_alloc"));
  EXPECT_THAT(outcome.output, ::testing::Not(HasSubstr("without reaching a memory limit")));
}

// The process state test-corrupt-state changes, as it was.
struct ProcessState {
  int rounding = 0;
  unsigned mxcsr = 0;
  std::filesystem::path cwd;
  mode_t umask = 0;
  sigset_t signals;
  bool had_variable = false;

  static ProcessState Save() {
    ProcessState s;
    s.rounding = std::fegetround();
#if defined(__x86_64__)
    s.mxcsr = _mm_getcsr();
#endif
    s.cwd = std::filesystem::current_path();
    s.umask = ::umask(022);
    ::umask(s.umask);
    sigprocmask(SIG_SETMASK, nullptr, &s.signals);
    s.had_variable = std::getenv(kTestCorruptedStateVariable) != nullptr;
    return s;
  }

  void Restore() const {
    std::fesetround(rounding);
#if defined(__x86_64__)
    _mm_setcsr(mxcsr);
#endif
    std::filesystem::current_path(cwd);
    ::umask(umask);
    sigprocmask(SIG_SETMASK, &signals, nullptr);
    if (!had_variable) unsetenv(kTestCorruptedStateVariable);
  }
};

TEST(TestProvidersTest, TheStateCorrupterComputesReluThenSpoilsItsProcess) {
  auto runtime = TestRuntime();
  ASSERT_NE(runtime, nullptr);
  const ProcessState before = ProcessState::Save();
  ASSERT_EQ(before.rounding, FE_TONEAREST);
  ASSERT_NE(before.cwd, std::filesystem::path("/"));
  ASSERT_FALSE(before.had_variable);
  auto out = RunRelu(*runtime, kTestCorruptStateProviderName, {-1.5f, 0, 2, -0.25f});
  const ProcessState after = ProcessState::Save();
  const volatile float a_fifth = 0.2f;
  const float rounded = std::nearbyint(a_fifth);  // as ref's Round computes it
  before.Restore();

  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[1,4] {0, 0, 2, 0}");
  EXPECT_EQ(after.rounding, FE_UPWARD);
  EXPECT_EQ(rounded, 1.0f);
#if defined(__x86_64__)
  EXPECT_EQ(after.mxcsr & 0x8040u, 0x8040u) << "flush-to-zero and denormals-are-zero";
#endif
  EXPECT_TRUE(after.had_variable);
  EXPECT_EQ(after.cwd, std::filesystem::path("/"));
  EXPECT_EQ(after.umask, 0777u);
  EXPECT_EQ(sigismember(&after.signals, SIGUSR1), 1);
  EXPECT_EQ(sigismember(&after.signals, SIGALRM), 1);

  const ProcessState restored = ProcessState::Save();
  EXPECT_EQ(restored.rounding, FE_TONEAREST);
  EXPECT_EQ(restored.cwd, before.cwd);
  EXPECT_FALSE(restored.had_variable);
  EXPECT_EQ(sigismember(&restored.signals, SIGUSR1), 0);
}

TEST(TestProvidersTest, TheIsolationOptionSaysWhetherEachCaseNeedsAProcess) {
  auto plain = CreateRuntimeWithTestProviders();
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_FALSE((*plain)->NeedsCaseIsolation());
  auto worker = CreateRuntimeWithTestProviders({{"isolation", "worker"}});
  ASSERT_TRUE(worker.ok()) << worker.status().ToString();
  EXPECT_FALSE((*worker)->NeedsCaseIsolation());
  auto isolated = CreateRuntimeWithTestProviders({{"isolation", "case"}});
  ASSERT_TRUE(isolated.ok()) << isolated.status().ToString();
  EXPECT_TRUE((*isolated)->NeedsCaseIsolation());
  // Otherwise the same runtime.
  EXPECT_EQ((*isolated)->name(), (*plain)->name());
  EXPECT_EQ((*isolated)->providers(), (*plain)->providers());
  auto out = RunRelu(**isolated, "ref", {-1, 0, 1, 2});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].tensor().DebugString(), "FLOAT[1,4] {0, 0, 1, 2}");
}

TEST(TestProvidersTest, AnyOtherRuntimeOptionIsRefusedByName) {
  auto key = CreateRuntimeWithTestProviders({{"arena", "off"}});
  EXPECT_EQ(key.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(key.status().message(), HasSubstr("takes no runtime options but isolation"));
  EXPECT_THAT(key.status().message(), HasSubstr("got 'arena'"));
  auto value = CreateRuntimeWithTestProviders({{"isolation", "sometimes"}});
  EXPECT_EQ(value.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(value.status().message(), HasSubstr("isolation is 'worker' or 'case'; got "
                                                  "'sometimes'"));
}

}  // namespace
}  // namespace onnxgate
