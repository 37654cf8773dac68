// The dnnl EP's registration table: every kernel, with the op versions it claims (float32
// only), written out explicitly as ONNX's schemas number them.
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnxgate::dnnl_ep {

// The newest ai.onnx opset whose semantics the dnnl kernels were checked against (ONNX 1.23.2).
// Ranges are closed (kernel_def.h), so this claims nothing by itself.
inline constexpr int kCheckedThroughOpset = 28;

// Registers every dnnl kernel; each kernel built from the registry holds `dnnl`.
Status RegisterDnnlKernels(KernelRegistry& registry, std::shared_ptr<const DnnlContext> dnnl);

}  // namespace onnxgate::dnnl_ep
