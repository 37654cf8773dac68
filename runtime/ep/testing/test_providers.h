// Providers that misbehave on purpose, so the harness can prove that a kernel which crashes, never
// returns or allocates without bound becomes that case's CRASH, TIMEOUT or out-of-memory failure
// while the run goes on, that a gate fails on exactly the cases a wrong kernel touches, and that a
// kernel which leaves its process in a bad state cannot spoil a later case. Test-only: the
// built-in runtime never offers them; tests make a runtime of their own with them, or load
// libonnxgate_test_providers_plugin.so. test-crash, test-hang, test-memory-hog and
// test-corrupt-state take Relu nodes only and decline everything else; test-broken-relu is the
// ref provider with a wrong Relu.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

inline constexpr char kTestCrashProviderName[] = "test-crash";
inline constexpr char kTestHangProviderName[] = "test-hang";
inline constexpr char kTestBrokenReluProviderName[] = "test-broken-relu";
inline constexpr char kTestMemoryHogProviderName[] = "test-memory-hog";
inline constexpr char kTestCorruptStateProviderName[] = "test-corrupt-state";

// test-memory-hog allocates this much at a time, and gives up after kTestMemoryHogCapBytes.
inline constexpr size_t kTestMemoryHogChunkBytes = size_t{64} << 20;
inline constexpr size_t kTestMemoryHogCapBytes = size_t{4} << 30;

// The environment variable test-corrupt-state sets to "1".
inline constexpr char kTestCorruptedStateVariable[] = "ONNXGATE_TEST_CORRUPTED_STATE";

// Relu's kernel dies with SIGSEGV.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestCrashProvider();
// Relu's kernel sleeps forever.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestHangProvider();
// Every ref kernel, except that Relu lets negative values through unchanged.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestBrokenReluProvider();
// Relu's kernel allocates kTestMemoryHogChunkBytes at a time, writing to every page and keeping
// each, until an allocation fails: the std::bad_alloc leaves the kernel, as it does under an
// address-space limit (RLIMIT_AS). After `cap_bytes` without a failure it frees what it took and
// returns Internal ("test-memory-hog: allocated 4 GiB without reaching a memory limit"), so a test
// that forgot the limit cannot take the machine down. A cap other than the default is for tests.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestMemoryHogProvider(
    size_t cap_bytes = kTestMemoryHogCapBytes);
// Relu's kernel is ref's, and computes the right answer; then it leaves its process in a bad
// state on purpose, as a careless kernel would, and does not undo any of it:
//   - the floating-point rounding mode is FE_UPWARD (fesetround), so ref's Round (std::nearbyint)
//     rounds 0.2 up to 1 in any later case of the process that runs it;
//   - on x86-64, MXCSR's flush-to-zero and denormals-are-zero bits are set, so denormal floats
//     read and computed as zero;
//   - the environment variable kTestCorruptedStateVariable is "1";
//   - the working directory is "/";
//   - the file mode creation mask is 0777 (umask), so a file created later has no permissions;
//   - SIGUSR1 and SIGALRM are blocked (sigprocmask).
// The rounding mode, MXCSR and the signal mask belong to the thread that ran the kernel (the thread
// that calls Run, for a load with one intra-op thread); the rest to the whole process.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestCorruptStateProvider();

// The built-in runtime's providers, then the five above.
std::vector<ProviderEntry> BuiltinAndTestProviderEntries();
// The built-in runtime offering them. It takes one runtime option, isolation: "worker" (the
// default) or "case", which makes NeedsCaseIsolation() true so that the harness runs each of its
// cases in a process of its own. Any other key or value is refused (InvalidArgument, naming it).
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntimeWithTestProviders(
    const RuntimeOptions& options = {});

}  // namespace onnxgate
