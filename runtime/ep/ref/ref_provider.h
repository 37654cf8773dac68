// The `ref` execution provider: the plain Eigen kernels of RegisterRefKernels, the oracle that
// every other provider is compared with.
#pragma once

#include <memory>

#include "runtime/provider/execution_provider.h"

namespace onnxgate {

inline constexpr char kRefProviderName[] = "ref";

// Builds the provider and its registry (once; share the result between sessions).
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateRefProvider();

}  // namespace onnxgate
