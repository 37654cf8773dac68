// Binary arithmetic: operands of one shape take the plain kernel; otherwise Y's dims and each
// operand's broadcast strides go to the device with the operands. Operands on the device are
// read where they are; Y stays there.
#include "runtime/ep/opencl/kernels/binary.h"

#include "runtime/provider/common/broadcast.h"

namespace onnxgate::opencl_ep {

StatusOr<std::unique_ptr<OpKernel>> BinaryKernel::Create(const KernelInfo& info, BinaryOp op,
                                                         Context cl) {
  const char* prefix = op == BinaryOp::kAdd   ? "add"
                       : op == BinaryOp::kSub ? "sub"
                       : op == BinaryOp::kMul ? "mul"
                                              : "div";
  return std::unique_ptr<OpKernel>(new BinaryKernel(std::move(cl), prefix));
}

Status BinaryKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput a, GetClInput(ctx, *cl_, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(ClInput b, GetClInput(ctx, *cl_, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, BroadcastShapeOf({a.shape, b.shape}));
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, out));
  const size_t count = static_cast<size_t>(y.NumElements());
  if (a.shape == out && b.shape == out) {
    ONNXGATE_RETURN_IF_ERROR(cl_->Run(prefix_ + "_same_f32", {count}, {a.arg, b.arg, y.arg()}));
  } else {
    // meta: Y's dims, A's strides, B's strides (3 x rank longs).
    std::vector<int64_t> meta = out.dims();
    for (const Shape* operand : {&a.shape, &b.shape}) {
      const std::vector<int64_t> strides = BroadcastStrides(*operand, out);
      meta.insert(meta.end(), strides.begin(), strides.end());
    }
    ONNXGATE_RETURN_IF_ERROR(cl_->Run(prefix_ + "_bcast_f32", {count},
                                      {a.arg, b.arg, y.arg(), KernelArg::Longs(std::move(meta)),
                                       KernelArg::Int(static_cast<int32_t>(out.rank()))}));
  }
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
