// NonZero.
#include "runtime/ep/ref/kernels/tensor/non_zero.h"

#include <string>
#include <type_traits>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

template <typename T>
bool IsNonZero(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return !v.empty();
  } else if constexpr (kIsHalf<T>) {
    return v.ToFloat() != 0;  // NaN compares unequal, so it counts as non-zero
  } else {
    return v != T{};
  }
}

}  // namespace

StatusOr<Tensor> NonZero(const Tensor& x) {
  const int64_t n = x.NumElements();
  std::vector<int64_t> flat;
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (IsNonZero(in[i])) flat.push_back(i);
    }
    return OkStatus();
  }));
  std::vector<int64_t> dims = x.shape().dims();
  if (dims.empty()) dims.push_back(1);
  const int64_t rank = static_cast<int64_t>(dims.size());
  const int64_t count = static_cast<int64_t>(flat.size());
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kInt64, Shape{rank, count}));
  int64_t* out = y.mutable_data<int64_t>();
  for (int64_t j = 0; j < count; ++j) {
    // Unravel the flat index, last dim fastest.
    int64_t rest = flat[j];
    for (int64_t d = rank - 1; d >= 0; --d) {
      out[d * count + j] = rest % dims[d];
      rest /= dims[d];
    }
  }
  return y;
}

Status NonZeroKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NonZero(*x));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
