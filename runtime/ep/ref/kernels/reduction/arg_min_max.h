// ArgMax and ArgMin: the index of the largest or smallest element along one axis, as int64.
// Negative axes exist from opset 11, select_last_index from opset 12.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Along `axis` (already normalised) of `x`: the index of the first maximum (or minimum), or of
// the last one with `select_last_index`. NaN counts as more extreme than every number for both
// ops, as numpy's argmax and argmin treat it. InvalidArgument when the axis has size 0.
StatusOr<Tensor> ArgExtreme(const Tensor& x, int64_t axis, bool is_max, bool keepdims,
                            bool select_last_index);

template <bool kIsMax>
class ArgMinMaxKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ArgMinMaxKernel(int64_t axis, bool keepdims, bool select_last_index, bool allow_negative_axis)
      : axis_(axis),
        keepdims_(keepdims),
        select_last_index_(select_last_index),
        allow_negative_axis_(allow_negative_axis) {}
  int64_t axis_;
  bool keepdims_;
  bool select_last_index_;
  bool allow_negative_axis_;
};

using ArgMaxKernel = ArgMinMaxKernel<true>;
using ArgMinKernel = ArgMinMaxKernel<false>;

}  // namespace onnxgate::ref
