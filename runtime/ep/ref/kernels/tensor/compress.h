// Compress: keeps the slices along an axis (or the elements of the flattened input) whose
// entry in a 1-D bool condition is true.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// `axis` is normalised, or empty to flatten the input first. A condition shorter than the axis
// drops the slices past its end; a longer one may only hold false past the axis.
StatusOr<Tensor> Compress(const Tensor& input, const Tensor& condition,
                          std::optional<int64_t> axis);

class CompressKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  CompressKernel(std::optional<int64_t> axis, bool allow_negative_axis)
      : axis_(axis), allow_negative_axis_(allow_negative_axis) {}
  std::optional<int64_t> axis_;
  bool allow_negative_axis_;
};

}  // namespace onnxgate::ref
