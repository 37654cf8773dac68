// Compress.
#include "runtime/ep/ref/kernels/tensor/compress.h"

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

StatusOr<Tensor> Compress(const Tensor& input, const Tensor& condition,
                          std::optional<int64_t> axis) {
  if (condition.dtype() != DataType::kBool || condition.shape().rank() != 1) {
    return InvalidArgument(std::string("condition must be a 1-D bool tensor, got ") +
                           DataTypeShortName(condition.dtype()) + condition.shape().ToString());
  }
  const Shape& s = input.shape();
  // View the input as [outer, size, inner] with the selection on the middle axis.
  int64_t outer = 1, size = input.NumElements(), inner = 1;
  if (axis) {
    size = s[*axis];
    for (int64_t d = 0; d < *axis; ++d) outer *= s[d];
    for (size_t d = static_cast<size_t>(*axis) + 1; d < s.rank(); ++d) inner *= s[d];
  }
  const bool* cond = condition.data<bool>();
  const int64_t n = condition.NumElements();
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < n; ++i) {
    if (!cond[i]) continue;
    if (i >= size) {
      return InvalidArgument("condition selects index " + std::to_string(i) + ", beyond the " +
                             std::to_string(size) + " slices of the input " + s.ToString());
    }
    kept.push_back(i);
  }
  const int64_t count = static_cast<int64_t>(kept.size());
  std::vector<int64_t> from;
  from.reserve(static_cast<size_t>(outer * count * inner));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i : kept) {
      for (int64_t e = 0; e < inner; ++e) from.push_back((o * size + i) * inner + e);
    }
  }
  Shape out_shape({count});
  if (axis) {
    out_shape = s;
    out_shape[static_cast<size_t>(*axis)] = count;
  }
  return TakeElements(input, out_shape, from);
}

StatusOr<std::unique_ptr<OpKernel>> CompressKernel::Create(const KernelInfo& info) {
  std::optional<int64_t> axis;
  if (info.has_attribute("axis")) {
    ONNXGATE_ASSIGN_OR_RETURN(axis, info.GetInt("axis"));
  }
  return std::unique_ptr<OpKernel>(new CompressKernel(axis, info.since_version() >= 11));
}

Status CompressKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* condition, GetInput(ctx, 1, "condition"));
  std::optional<int64_t> axis;
  if (axis_) {
    if (input->shape().rank() == 0) return InvalidArgument("an axis needs an input of rank >= 1");
    ONNXGATE_ASSIGN_OR_RETURN(
        axis,
        NormalizeAxisOf(*axis_, static_cast<int64_t>(input->shape().rank()), allow_negative_axis_));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Compress(*input, *condition, axis));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
