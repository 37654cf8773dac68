// What the opencl EP's kernels share: float32 inputs with a uniform message for other types,
// the base class that holds the provider's context and takes its resident tensors, and the
// factory of a kernel whose Create takes that context.
#pragma once

#include <memory>
#include <utility>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/ep/opencl/opencl_context.h"
#include "runtime/ep/opencl/opencl_resident.h"
#include "runtime/kernel/kernel_def.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::opencl_ep {

using Context = std::shared_ptr<const OpenClContext>;

// The tensor of input `index`, called `name` in the op's schema, which must be float32: the
// registration table claims float32 alone, so another type reaches a kernel only when the
// model's types were unknown at load; that is Unimplemented (the provider does not take it).
// InvalidArgument when the input is omitted or not a tensor.
StatusOr<const Tensor*> FloatInput(const KernelContext& ctx, size_t index, const char* name);

// Every opencl kernel: it launches on `cl` and reads that context's resident tensors as they
// are (opencl_resident.h), so a chain of opencl nodes keeps its tensors on the device.
class OpenClKernel : public OpKernel {
 public:
  const void* resident_domain() const override { return cl_.get(); }

 protected:
  explicit OpenClKernel(Context cl) : cl_(std::move(cl)) {}

  const Context cl_;
};

// The factory of kernel class K, whose Create takes the node and the provider's context: every
// opencl kernel holds the context it launches on.
template <typename K>
KernelFactory With(const Context& cl) {
  return [cl](const KernelInfo& info) { return K::Create(info, cl); };
}

}  // namespace onnxgate::opencl_ep
