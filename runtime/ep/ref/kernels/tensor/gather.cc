// Gather.
#include "runtime/ep/ref/kernels/tensor/gather.h"

#include <algorithm>

namespace onnxgate::ref {

StatusOr<Tensor> Gather(const Tensor& data, const Tensor& indices, int64_t axis,
                        bool allow_negative_indices) {
  if (indices.dtype() != DataType::kInt32 && indices.dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("indices must be int32 or int64, got ") +
                           DataTypeShortName(indices.dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ToInt64s(indices, "indices"));
  const Shape& s = data.shape();
  const int64_t size = s[axis];
  for (size_t j = 0; j < idx.size(); ++j) {
    int64_t i = idx[j];
    const bool in_range = allow_negative_indices ? (i >= -size && i < size) : (i >= 0 && i < size);
    if (!in_range) {
      return InvalidArgument(
          "index " + std::to_string(i) + " (element " + std::to_string(j) +
          " of indices) is out of range for axis " + std::to_string(axis) + " of size " +
          std::to_string(size) +
          (allow_negative_indices || i >= 0 ? "" : "; negative indices exist from Gather-11"));
    }
    if (i < 0) idx[j] = i + size;
  }
  std::vector<int64_t> dims(s.dims().begin(), s.dims().begin() + axis);
  dims.insert(dims.end(), indices.shape().dims().begin(), indices.shape().dims().end());
  dims.insert(dims.end(), s.dims().begin() + axis + 1, s.dims().end());
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(data.dtype(), Shape(dims)));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= s[d];
  for (size_t d = static_cast<size_t>(axis) + 1; d < s.rank(); ++d) inner *= s[d];
  const int64_t n = static_cast<int64_t>(idx.size());
  Status st = VisitAllTypes(data.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = data.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < n; ++j) {
        const T* from = in + (o * size + idx[j]) * inner;
        std::copy(from, from + inner, out + (o * n + j) * inner);
      }
    }
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> GatherKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 0));
  return std::unique_ptr<OpKernel>(new GatherKernel(axis, info.since_version() >= 11));
}

Status GatherKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 1, "indices"));
  const int64_t rank = static_cast<int64_t>(data->shape().rank());
  if (rank == 0) return InvalidArgument("data must have rank >= 1, got a scalar");
  // The axis attribute takes negative values in every version.
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Gather(*data, *indices, axis, allow_negative_indices_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
