// The dnnl EP's registration table: every kernel, with the op versions it claims (float32
// only), written out explicitly as ONNX's schemas number them.
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The newest ai.onnx opset whose semantics the dnnl kernels were checked against (ONNX 1.23.2).
// Ranges are closed (kernel_def.h), so this claims nothing by itself.
inline constexpr int kCheckedThroughOpset = 28;

// Registers every dnnl kernel; each kernel built from the registry holds `dnnl`. The kernels dnnl
// runs on the host (Erf, Gather, Reshape, Flatten, Identity of a host tensor) are `host`'s,
// borrowed through its registry (borrowed_kernel.h): the built-in runtime hands over ref.
Status RegisterDnnlKernels(KernelRegistry& registry, std::shared_ptr<const DnnlContext> dnnl,
                           std::shared_ptr<const ExecutionProvider> host);

}  // namespace onnxgate::dnnl_ep
