// Providers that misbehave on purpose, so the harness can prove that a kernel which crashes or
// never returns becomes that case's CRASH or TIMEOUT while the run goes on, and that a gate fails
// on exactly the cases a wrong kernel touches. Test-only: the built-in runtime never offers them;
// tests make a runtime of their own with them, or load libonnxgate_test_providers_plugin.so.
// test-crash and test-hang take Relu nodes only and decline everything else; test-broken-relu
// is the ref provider with a wrong Relu.
#pragma once

#include <memory>
#include <vector>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

inline constexpr char kTestCrashProviderName[] = "test-crash";
inline constexpr char kTestHangProviderName[] = "test-hang";
inline constexpr char kTestBrokenReluProviderName[] = "test-broken-relu";

// Relu's kernel dies with SIGSEGV.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestCrashProvider();
// Relu's kernel sleeps forever.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestHangProvider();
// Every ref kernel, except that Relu lets negative values through unchanged.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestBrokenReluProvider();

// The built-in runtime's providers, then the three above.
std::vector<ProviderEntry> BuiltinAndTestProviderEntries();
// The built-in runtime offering them. Like the built-in runtime, it takes no runtime options.
StatusOr<std::unique_ptr<RuntimeUnderTest>> CreateRuntimeWithTestProviders(
    const RuntimeOptions& options = {});

}  // namespace onnxgate
