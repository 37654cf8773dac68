// CumSum and CumProd.
#include "runtime/ep/ref/kernels/math/cum_sum.h"

#include <type_traits>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

StatusOr<Tensor> Cumulative(CumulativeOp op, const Tensor& x, int64_t axis, bool exclusive,
                            bool reverse) {
  const bool product = op == CumulativeOp::kProd;
  const std::vector<int64_t>& dims = x.shape().dims();
  const int64_t n = dims.empty() ? 1 : dims[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));
  if (y.NumElements() == 0) return y;
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<kIsFloat<T>, double, T>;
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t base = o * n * inner + i;
        Acc acc = product ? 1 : 0;
        auto fold = [&acc, product](Acc v) {
          if constexpr (kIsFloat<T>) {
            acc = product ? acc * v : acc + v;
          } else {
            acc = product ? WrapMul<T>(acc, v) : WrapAdd<T>(acc, v);
          }
        };
        for (int64_t step = 0; step < n; ++step) {
          const int64_t at = base + (reverse ? n - 1 - step : step) * inner;
          Acc v;
          if constexpr (kIsFloat<T>) {
            v = static_cast<double>(ToCompute(in[at]));
          } else {
            v = in[at];
          }
          if (!exclusive) fold(v);
          if constexpr (kIsFloat<T>) {
            out[at] = FromCompute<T>(static_cast<ComputeType<T>>(acc));
          } else {
            out[at] = acc;
          }
          if (exclusive) fold(v);
        }
      }
    }
    return OkStatus();
  }));
  return y;
}

template <CumulativeOp kOp>
StatusOr<std::unique_ptr<OpKernel>> CumulativeKernel<kOp>::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t exclusive, info.GetInt("exclusive", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t reverse, info.GetInt("reverse", 0));
  return std::unique_ptr<OpKernel>(new CumulativeKernel(exclusive != 0, reverse != 0));
}

template <CumulativeOp kOp>
Status CumulativeKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* axis_t, GetInput(ctx, 1, "axis"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> axis,
                            ToInt64List(*axis_t, "axis", /*allow_scalar=*/true));
  if (axis.size() != 1) {
    return InvalidArgument("axis must hold exactly one value, got shape " +
                           axis_t->shape().ToString());
  }
  const int64_t rank = static_cast<int64_t>(x->shape().rank());
  if (rank == 0) return InvalidArgument("x must have rank >= 1, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis[0], rank, /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Cumulative(kOp, *x, a, exclusive_, reverse_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

template class CumulativeKernel<CumulativeOp::kSum>;
template class CumulativeKernel<CumulativeOp::kProd>;

}  // namespace onnxgate::ref
