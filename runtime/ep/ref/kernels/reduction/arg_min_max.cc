// ArgMax and ArgMin.
#include "runtime/ep/ref/kernels/reduction/arg_min_max.h"

#include <cmath>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

template <typename T>
bool IsNan(T v) {
  if constexpr (kIsFloat<T>) {
    return std::isnan(ToCompute(v));
  } else {
    return false;
  }
}

// Whether `v` (at a later index) replaces the current pick `best`.
template <typename T>
bool Replaces(T v, T best, bool is_max, bool last) {
  const auto cv = ToCompute(v);
  const auto cb = ToCompute(best);
  if (IsNan(best)) return last && IsNan(v);  // only a later NaN displaces a NaN
  if (IsNan(v)) return true;
  if (is_max) return last ? cv >= cb : cv > cb;
  return last ? cv <= cb : cv < cb;
}

}  // namespace

StatusOr<Tensor> ArgExtreme(const Tensor& x, int64_t axis, bool is_max, bool keepdims,
                            bool select_last_index) {
  const std::vector<int64_t>& dims = x.shape().dims();
  const int64_t n = dims.empty() ? 1 : dims[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= dims[d];
  for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner *= dims[d];
  std::vector<int64_t> out_dims;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (static_cast<int64_t>(d) != axis) {
      out_dims.push_back(dims[d]);
    } else if (keepdims) {
      out_dims.push_back(1);
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kInt64, Shape(out_dims)));
  if (y.NumElements() == 0) return y;
  if (n == 0) {
    return InvalidArgument("axis " + std::to_string(axis) + " of input shape " +
                           x.shape().ToString() + " is empty: it has no " +
                           (is_max ? "maximum" : "minimum"));
  }
  int64_t* out = y.mutable_data<int64_t>();
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const T* row = in + o * n * inner + i;
        int64_t best = 0;
        for (int64_t k = 1; k < n; ++k) {
          if (Replaces(row[k * inner], row[best * inner], is_max, select_last_index)) best = k;
        }
        out[o * inner + i] = best;
      }
    }
    return OkStatus();
  }));
  return y;
}

template <bool kIsMax>
StatusOr<std::unique_ptr<OpKernel>> ArgMinMaxKernel<kIsMax>::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t keepdims, info.GetInt("keepdims", 1));
  int64_t select_last = 0;
  if (info.since_version() >= 12) {
    ONNXGATE_ASSIGN_OR_RETURN(select_last, info.GetInt("select_last_index", 0));
  }
  return std::unique_ptr<OpKernel>(
      new ArgMinMaxKernel(axis, keepdims != 0, select_last != 0, info.since_version() >= 11));
}

template <bool kIsMax>
Status ArgMinMaxKernel<kIsMax>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  const int64_t rank = static_cast<int64_t>(x->shape().rank());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, allow_negative_axis_));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ArgExtreme(*x, axis, kIsMax, keepdims_, select_last_index_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

template class ArgMinMaxKernel<true>;
template class ArgMinMaxKernel<false>;

}  // namespace onnxgate::ref
