// Providers that misbehave on purpose, so the harness can prove that a kernel which crashes or
// never returns becomes that case's CRASH or TIMEOUT while the run goes on. Built only with the
// CMake option ONNXGATE_TEST_PROVIDERS; each takes Relu nodes only and declines everything else.
#pragma once

#include <memory>

#include "runtime/session/execution_provider.h"

namespace onnxgate {

inline constexpr char kTestCrashProviderName[] = "test-crash";
inline constexpr char kTestHangProviderName[] = "test-hang";

// Relu's kernel dies with SIGSEGV.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestCrashProvider();
// Relu's kernel sleeps forever.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateTestHangProvider();

}  // namespace onnxgate
