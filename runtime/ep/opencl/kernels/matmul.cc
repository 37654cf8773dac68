// MatMul and Gemm: shapes are planned and checked on the host (with the ref EP's MatMul plan,
// so both providers refuse the same shapes in the same words), products run on the device, on
// operands there or copied in, into a result left there.
#include "runtime/ep/opencl/kernels/matmul.h"

#include <optional>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/matmul_plan.h"

namespace onnxgate::opencl_ep {

StatusOr<std::unique_ptr<OpKernel>> MatMulKernel::Create(const KernelInfo& info, Context cl) {
  return std::unique_ptr<OpKernel>(new MatMulKernel(std::move(cl)));
}

Status MatMulKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput a, GetClInput(ctx, *cl_, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(ClInput b, GetClInput(ctx, *cl_, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(MatMulPlan plan, PlanMatMul(a.shape, b.shape));
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, plan.output));
  const size_t batches = plan.a_offsets.size();
  ONNXGATE_RETURN_IF_ERROR(cl_->Run(
      "matmul_f32", {static_cast<size_t>(plan.n), static_cast<size_t>(plan.m), batches},
      {a.arg, b.arg, y.arg(), KernelArg::Longs(plan.a_offsets), KernelArg::Longs(plan.b_offsets),
       KernelArg::Long(plan.m), KernelArg::Long(plan.k), KernelArg::Long(plan.n)}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> GemmKernel::Create(const KernelInfo& info, Context cl) {
  ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 1.0f));
  ONNXGATE_ASSIGN_OR_RETURN(float beta, info.GetFloat("beta", 1.0f));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t trans_a, info.GetInt("transA", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t trans_b, info.GetInt("transB", 0));
  if (info.since_version() < 11 && !info.has_input(2)) {
    return InvalidArgument("input 'C' is required before Gemm-11");
  }
  return std::unique_ptr<OpKernel>(
      new GemmKernel(std::move(cl), alpha, beta, trans_a != 0, trans_b != 0));
}

Status GemmKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput a, GetClInput(ctx, *cl_, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(ClInput b, GetClInput(ctx, *cl_, 1, "B"));
  std::optional<ClInput> c;
  if (ctx.has_input(2)) {
    ONNXGATE_ASSIGN_OR_RETURN(c, GetClInput(ctx, *cl_, 2, "C"));
  }
  if (a.shape.rank() != 2 || b.shape.rank() != 2) {
    return InvalidArgument("Gemm: A and B must be 2-D, got A " + a.shape.ToString() + " and B " +
                           b.shape.ToString());
  }
  const int64_t m = trans_a_ ? a.shape[1] : a.shape[0];
  const int64_t k = trans_a_ ? a.shape[0] : a.shape[1];
  const int64_t n = trans_b_ ? b.shape[0] : b.shape[1];
  const int64_t b_k = trans_b_ ? b.shape[1] : b.shape[0];
  if (b_k != k) {
    return InvalidArgument("Gemm: inner dims differ: op(A) of A " + a.shape.ToString() +
                           " has K = " + std::to_string(k) + ", op(B) of B " + b.shape.ToString() +
                           " has K = " + std::to_string(b_k));
  }
  const Shape out{m, n};
  int64_t c_row_stride = 0;
  int64_t c_col_stride = 0;
  const bool use_c = c.has_value() && beta_ != 0.0f;
  if (c.has_value()) {
    // C must broadcast to M x N without changing it (unidirectional broadcasting).
    auto shape = BroadcastShapeOf({c->shape, out});
    if (!shape.ok() || *shape != out || c->shape.rank() > 2) {
      return InvalidArgument("Gemm: input 'C' of shape " + c->shape.ToString() +
                             " does not broadcast to the result's " + out.ToString());
    }
    const std::vector<int64_t> strides = BroadcastStrides(c->shape, out);
    c_row_stride = strides[0];
    c_col_stride = strides[1];
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, out));
  ONNXGATE_RETURN_IF_ERROR(cl_->Run(
      "gemm_f32", {static_cast<size_t>(n), static_cast<size_t>(m)},
      {a.arg, b.arg, use_c ? c->arg : KernelArg::Input(nullptr, 0), y.arg(), KernelArg::Long(m),
       KernelArg::Long(k), KernelArg::Long(n), KernelArg::Int(trans_a_), KernelArg::Int(trans_b_),
       KernelArg::Float(alpha_), KernelArg::Float(beta_), KernelArg::Int(use_c),
       KernelArg::Long(c_row_stride), KernelArg::Long(c_col_stride)}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
