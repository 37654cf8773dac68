// Flatten: a view of the input under its 2-D shape.
#include "runtime/ep/ref/kernels/nn/flatten.h"

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/shape_ops.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> FlattenKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 1));
  return std::unique_ptr<OpKernel>(new FlattenKernel(axis, info.since_version() >= 11));
}

Status FlattenKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, FlattenShape(x->shape(), axis_, allow_negative_));
  ctx.set_output(0, x->Reshaped(std::move(out)));
  return OkStatus();
}

}  // namespace onnxgate::ref
