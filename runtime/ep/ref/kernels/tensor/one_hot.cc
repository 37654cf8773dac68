// OneHot.
#include "runtime/ep/ref/kernels/tensor/one_hot.h"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// The elements of a numeric tensor as int64; floats truncate toward zero, as the spec's "cast
// to int64" does.
StatusOr<std::vector<int64_t>> TruncatedInt64s(const Tensor& t, const char* name) {
  std::vector<int64_t> out(static_cast<size_t>(t.NumElements()));
  Status st = VisitArithmeticTypes(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      if constexpr (kIsFloat<T>) {
        out[i] = SaturatingCast<int64_t>(static_cast<double>(ToCompute(in[i])));
      } else if constexpr (std::is_same_v<T, uint64_t>) {
        // Beyond int64 is out of range for any depth; keep it so instead of wrapping negative.
        out[i] = in[i] > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(in[i]);
      } else {
        out[i] = static_cast<int64_t>(in[i]);
      }
    }
    return OkStatus();
  });
  if (!st.ok()) return st.WithContext(name);
  return out;
}

}  // namespace

StatusOr<Tensor> OneHot(const Tensor& indices, int64_t depth, const Tensor& values, int64_t axis,
                        bool negative_indices) {
  if (depth < 0) return InvalidArgument("depth must not be negative, got " + std::to_string(depth));
  if (values.NumElements() != 2 || values.shape().rank() > 1) {
    return InvalidArgument("values must be [off_value, on_value], got shape " +
                           values.shape().ToString());
  }
  const int64_t rank = static_cast<int64_t>(indices.shape().rank());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis, rank + 1, /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, TruncatedInt64s(indices, "indices"));
  const std::vector<int64_t>& dims = indices.shape().dims();
  std::vector<int64_t> out_dims = dims;
  out_dims.insert(out_dims.begin() + a, depth);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(values.dtype(), Shape(out_dims)));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < a; ++d) outer *= dims[d];
  for (int64_t d = a; d < rank; ++d) inner *= dims[d];
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(values.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T off = values.data<T>()[0];
    const T on = values.data<T>()[1];
    T* out = y.mutable_data<T>();
    for (int64_t i = 0, n = y.NumElements(); i < n; ++i) out[i] = off;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        int64_t k = idx[o * inner + i];
        if (negative_indices && k < 0) k += depth;
        if (k >= 0 && k < depth) out[(o * depth + k) * inner + i] = on;
      }
    }
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> OneHotKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  return std::unique_ptr<OpKernel>(new OneHotKernel(axis, info.since_version() >= 11));
}

Status OneHotKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 0, "indices"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* depth_t, GetInput(ctx, 1, "depth"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* values, GetInput(ctx, 2, "values"));
  if (depth_t->NumElements() != 1 || depth_t->shape().rank() > 1) {
    return InvalidArgument("depth must hold exactly one value, got shape " +
                           depth_t->shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> depth, TruncatedInt64s(*depth_t, "depth"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            OneHot(*indices, depth[0], *values, axis_, negative_indices_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
