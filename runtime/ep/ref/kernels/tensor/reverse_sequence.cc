// ReverseSequence.
#include "runtime/ep/ref/kernels/tensor/reverse_sequence.h"

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

StatusOr<Tensor> ReverseSequence(const Tensor& input, const Tensor& sequence_lens,
                                 int64_t batch_axis, int64_t time_axis) {
  const Shape& s = input.shape();
  if (s.rank() < 2) {
    return InvalidArgument("input must have rank >= 2, got " + s.ToString());
  }
  const int64_t batch = s[batch_axis], steps = s[time_axis];
  if (sequence_lens.dtype() != DataType::kInt64 || sequence_lens.shape() != Shape({batch})) {
    return InvalidArgument("sequence_lens must be int64 of shape [" + std::to_string(batch) +
                           "], got " + DataTypeShortName(sequence_lens.dtype()) +
                           sequence_lens.shape().ToString());
  }
  const int64_t* lens = sequence_lens.data<int64_t>();
  for (int64_t b = 0; b < batch; ++b) {
    if (lens[b] < 0 || lens[b] > steps) {
      return InvalidArgument("sequence_lens[" + std::to_string(b) +
                             "] = " + std::to_string(lens[b]) + " is outside [0, " +
                             std::to_string(steps) + "], the time axis of input " + s.ToString());
    }
  }
  const std::vector<int64_t> strides = s.Strides();
  std::vector<int64_t> from(static_cast<size_t>(input.NumElements()));
  std::vector<int64_t> coord(s.rank(), 0);
  for (size_t i = 0; i < from.size(); ++i) {
    // Step t of entry b reads step len - 1 - t while t < len.
    const int64_t b = coord[static_cast<size_t>(batch_axis)];
    const int64_t t = coord[static_cast<size_t>(time_axis)];
    const int64_t src_t = t < lens[b] ? lens[b] - 1 - t : t;
    from[i] = static_cast<int64_t>(i) + (src_t - t) * strides[static_cast<size_t>(time_axis)];
    for (size_t d = coord.size(); d-- > 0;) {
      if (++coord[d] < s[d]) break;
      coord[d] = 0;
    }
  }
  return TakeElements(input, s, from);
}

StatusOr<std::unique_ptr<OpKernel>> ReverseSequenceKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t batch_axis, info.GetInt("batch_axis", 1));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t time_axis, info.GetInt("time_axis", 0));
  if (!((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0))) {
    return InvalidArgument("batch_axis and time_axis must be 0 and 1 in either order, got " +
                           std::to_string(batch_axis) + " and " + std::to_string(time_axis));
  }
  return std::unique_ptr<OpKernel>(new ReverseSequenceKernel(batch_axis, time_axis));
}

Status ReverseSequenceKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* lens, GetInput(ctx, 1, "sequence_lens"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ReverseSequence(*input, *lens, batch_axis_, time_axis_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
