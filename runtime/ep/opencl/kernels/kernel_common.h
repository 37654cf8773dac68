// What the opencl EP's kernels share: float32 inputs with a uniform message for other types,
// and the factory of a kernel whose Create takes the provider's context.
#pragma once

#include <memory>
#include <utility>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/ep/opencl/opencl_context.h"
#include "runtime/kernel/kernel_def.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::opencl_ep {

using Context = std::shared_ptr<const OpenClContext>;

// The tensor of input `index`, called `name` in the op's schema, which must be float32: the
// registration table claims float32 alone, so another type reaches a kernel only when the
// model's types were unknown at load; that is Unimplemented (the provider does not take it).
// InvalidArgument when the input is omitted or not a tensor.
StatusOr<const Tensor*> FloatInput(const KernelContext& ctx, size_t index, const char* name);

// The factory of kernel class K, whose Create takes the node and the provider's context: every
// opencl kernel holds the context it launches on.
template <typename K>
KernelFactory With(const Context& cl) {
  return [cl](const KernelInfo& info) { return K::Create(info, cl); };
}

}  // namespace onnxgate::opencl_ep
