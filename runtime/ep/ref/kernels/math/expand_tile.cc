// Expand.
#include "runtime/ep/ref/kernels/math/expand_tile.h"

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

StatusOr<Tensor> Expand(const Tensor& x, const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d < 0) return InvalidArgument("shape " + ListToString(shape) + " has a negative dim");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(x.shape(), Shape(shape)));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), out));
  CopyStrided(x, out.dims(), BroadcastStrides(x.shape(), out), 0, &y);
  return y;
}

Status ExpandKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* shape_t, GetInput(ctx, 1, "shape"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ToInt64List(*shape_t, "shape"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Expand(*x, shape));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
