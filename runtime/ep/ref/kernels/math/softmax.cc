// Softmax, LogSoftmax and Hardmax.
#include "runtime/ep/ref/kernels/math/softmax.h"

#include <cmath>
#include <limits>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

template <typename T>
void Normalize(SoftmaxOp op, const T* in, T* out, int64_t outer, int64_t n, int64_t inner) {
  // Softmax of doubles accumulates in long double: the same one step wider as float -> double.
  using Acc = std::conditional_t<std::is_same_v<T, double>, long double, double>;
  std::vector<Acc> row(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      Acc max = -std::numeric_limits<Acc>::infinity();
      int64_t argmax = 0;
      for (int64_t k = 0; k < n; ++k) {
        row[k] = static_cast<Acc>(ToCompute(in[base + k * inner]));
        // The first maximum wins; a NaN never compares greater.
        if (row[k] > max) {
          max = row[k];
          argmax = k;
        }
      }
      if (op == SoftmaxOp::kHardmax) {
        for (int64_t k = 0; k < n; ++k) {
          out[base + k * inner] = FromCompute<T>(k == argmax ? 1 : 0);
        }
        continue;
      }
      // With max = +inf every shifted value is NaN or -inf, which is what the math says too.
      Acc sum = 0;
      for (int64_t k = 0; k < n; ++k) sum += std::exp(row[k] - max);
      const Acc log_sum = std::log(sum);
      for (int64_t k = 0; k < n; ++k) {
        Acc v = op == SoftmaxOp::kSoftmax ? std::exp(row[k] - max) / sum : row[k] - max - log_sum;
        out[base + k * inner] = FromCompute<T>(static_cast<ComputeType<T>>(v));
      }
    }
  }
}

}  // namespace

StatusOr<Tensor> SoftmaxAlong(SoftmaxOp op, const Tensor& x, int64_t outer, int64_t n,
                              int64_t inner) {
  ONNXGATE_CHECK(outer * n * inner == x.NumElements());
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));
  ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    Normalize<T>(op, x.data<T>(), y.mutable_data<T>(), outer, n, inner);
    return OkStatus();
  }));
  return y;
}

StatusOr<Tensor> SoftmaxFamily(SoftmaxOp op, const Tensor& x, int64_t axis, bool coerce_2d) {
  const int64_t rank = static_cast<int64_t>(x.shape().rank());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis, rank, /*allow_negative=*/true));
  const auto& dims = x.shape().dims();
  int64_t outer = 1;
  for (int64_t d = 0; d < a; ++d) outer *= dims[d];
  if (coerce_2d) {
    int64_t n = 1;
    for (int64_t d = a; d < rank; ++d) n *= dims[d];
    return SoftmaxAlong(op, x, outer, n, 1);
  }
  int64_t inner = 1;
  for (int64_t d = a + 1; d < rank; ++d) inner *= dims[d];
  return SoftmaxAlong(op, x, outer, rank == 0 ? 1 : dims[a], inner);
}

template <SoftmaxOp kOp>
StatusOr<std::unique_ptr<OpKernel>> SoftmaxKernel<kOp>::Create(const KernelInfo& info) {
  const bool coerce_2d = info.since_version() < 13;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", coerce_2d ? 1 : -1));
  return std::unique_ptr<OpKernel>(new SoftmaxKernel(axis, coerce_2d));
}

template <SoftmaxOp kOp>
Status SoftmaxKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, SoftmaxFamily(kOp, *x, axis_, coerce_2d_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

template class SoftmaxKernel<SoftmaxOp::kSoftmax>;
template class SoftmaxKernel<SoftmaxOp::kLogSoftmax>;
template class SoftmaxKernel<SoftmaxOp::kHardmax>;

}  // namespace onnxgate::ref
