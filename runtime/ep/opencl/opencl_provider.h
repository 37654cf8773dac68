// The `opencl` execution provider: float32 kernels written in OpenCL C (runtime/ep/opencl/cl/,
// embedded at build time), run on the first GPU, accelerator or other OpenCL device found (PoCL's
// CPU device on a machine without a GPU). The built-in runtime puts `ref` after it, so the nodes
// it declines run on ref and the placement says so (docs/architecture.md, "The opencl EP").
#pragma once

#include <memory>

#include "runtime/provider/execution_provider.h"

namespace onnxgate {

inline constexpr char kOpenClProviderName[] = "opencl";

// Builds the provider and its registry (once; share the result between sessions). Probes for a
// device in a child process and calls no OpenCL function in this one: the device is set up by
// the first kernel that runs, in the process that runs it. Unavailable "no OpenCL device: ..."
// when there is none; the harness then reports the provider's cases as SKIP.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateOpenClProvider();

}  // namespace onnxgate
