// ReverseSequence: reverses the first sequence_lens[b] steps along the time axis of each batch
// entry b and copies the rest unchanged.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// `batch_axis` and `time_axis` are 0 and 1 in either order; sequence_lens is int64 [batch] with
// values in [0, time steps].
StatusOr<Tensor> ReverseSequence(const Tensor& input, const Tensor& sequence_lens,
                                 int64_t batch_axis, int64_t time_axis);

class ReverseSequenceKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ReverseSequenceKernel(int64_t batch_axis, int64_t time_axis)
      : batch_axis_(batch_axis), time_axis_(time_axis) {}
  int64_t batch_axis_;
  int64_t time_axis_;
};

}  // namespace onnxgate::ref
