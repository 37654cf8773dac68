// Softmax: the tensor is seen as (outer, n, inner) around the normalized dims; it is read on the
// device or copied in, and the result stays on the device.
#include "runtime/ep/opencl/kernels/softmax.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::opencl_ep {

StatusOr<std::unique_ptr<OpKernel>> SoftmaxKernel::Create(const KernelInfo& info, Context cl) {
  const bool coerce_2d = info.since_version() < 13;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", coerce_2d ? 1 : -1));
  return std::unique_ptr<OpKernel>(new SoftmaxKernel(std::move(cl), axis, coerce_2d));
}

Status SoftmaxKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput x, GetClInput(ctx, *cl_, 0, "input"));
  const int64_t rank = static_cast<int64_t>(x.shape.rank());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  const std::vector<int64_t>& dims = x.shape.dims();
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  int64_t n = 1;
  int64_t inner = 1;
  if (coerce_2d_) {
    for (int64_t d = axis; d < rank; ++d) n *= dims[d];
  } else {
    n = dims[axis];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= dims[d];
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, x.shape));
  if (n > 0) {
    ONNXGATE_RETURN_IF_ERROR(
        cl_->Run("softmax_f32", {static_cast<size_t>(inner), static_cast<size_t>(outer)},
                 {x.arg, y.arg(), KernelArg::Long(n), KernelArg::Long(inner)}));
  }
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
