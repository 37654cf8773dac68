// Trilu.
#include "runtime/ep/ref/kernels/tensor/trilu.h"

#include <climits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {}  // namespace

StatusOr<Tensor> Trilu(const Tensor& x, int64_t k, bool upper) {
  const std::vector<int64_t>& dims = x.shape().dims();
  const size_t rank = dims.size();
  if (rank < 2) return InvalidArgument("input must have rank >= 2, got " + x.shape().ToString());
  const int64_t rows = dims[rank - 2];
  const int64_t cols = dims[rank - 1];
  const int64_t matrices = rows * cols == 0 ? 0 : x.NumElements() / (rows * cols);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));  // zero-filled
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t b = 0; b < matrices; ++b) {
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
          const int64_t at = (b * rows + i) * cols + j;
          // j - i cannot overflow; k may be any int64, so compare without adding to it.
          const bool keep = upper ? j - i >= k : j - i <= k;
          if (keep) out[at] = in[at];
        }
      }
    }
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> TriluKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t upper, info.GetInt("upper", 1));
  return std::unique_ptr<OpKernel>(new TriluKernel(upper != 0));
}

Status TriluKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  int64_t k = 0;
  if (ctx.has_input(1)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* kt, GetInput(ctx, 1, "k"));
    if (kt->dtype() != DataType::kInt64 || kt->NumElements() != 1 || kt->shape().rank() > 1) {
      return InvalidArgument("k must be an int64 scalar, got " + kt->DebugString(2));
    }
    k = kt->data<int64_t>()[0];
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Trilu(*x, k, upper_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
