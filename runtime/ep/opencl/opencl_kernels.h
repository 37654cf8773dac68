// The opencl EP's registration table: every kernel with the op versions it claims (float32
// only), written out as ONNX's schemas number them.
#pragma once

#include <memory>

#include "runtime/ep/opencl/opencl_context.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnxgate::opencl_ep {

// The newest ai.onnx opset whose semantics the opencl kernels were checked against (ONNX
// 1.23.2). Ranges are closed (kernel_def.h), so this claims nothing by itself.
inline constexpr int kCheckedThroughOpset = 28;

// Registers every opencl kernel; each kernel built from the registry holds `cl`.
Status RegisterOpenClKernels(KernelRegistry& registry, std::shared_ptr<const OpenClContext> cl);

}  // namespace onnxgate::opencl_ep
