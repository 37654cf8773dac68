// Gather: picks entries along one axis of `data` by an indices tensor of any rank.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Output shape: data.shape[:axis] + indices.shape + data.shape[axis+1:]. `axis` is normalised.
// Indices are int32 or int64 in [0, s) for the axis size s, or in [-s, s) when
// `allow_negative_indices` (Gather-11 on). InvalidArgument names the first index out of range.
StatusOr<Tensor> Gather(const Tensor& data, const Tensor& indices, int64_t axis,
                        bool allow_negative_indices);

class GatherKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  GatherKernel(int64_t axis, bool allow_negative_indices)
      : axis_(axis), allow_negative_indices_(allow_negative_indices) {}
  int64_t axis_;
  bool allow_negative_indices_;
};

}  // namespace onnxgate::ref
