// OneHot (opsets 9 and 11): a new dim of size `depth` at `axis` holding on_value where the
// index points and off_value elsewhere. OneHot-11 also accepts negative indices (counted from
// depth); in OneHot-9 they select nothing.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// indices: any numeric type, truncated to int64; `values` = [off_value, on_value]; `axis` in
// [-r-1, r] for indices of rank r. Indices outside the accepted range give an all-off row.
// InvalidArgument for a negative depth, `values` of another size, or an axis out of range.
StatusOr<Tensor> OneHot(const Tensor& indices, int64_t depth, const Tensor& values, int64_t axis,
                        bool negative_indices);

class OneHotKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  OneHotKernel(int64_t axis, bool negative_indices)
      : axis_(axis), negative_indices_(negative_indices) {}
  int64_t axis_;
  bool negative_indices_;
};

}  // namespace onnxgate::ref
