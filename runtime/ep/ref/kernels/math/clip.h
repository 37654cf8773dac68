// Clip: limits every element to [min, max]; the bounds are attributes before opset 11 and
// optional scalar inputs from opset 11 on.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// y = min(max(x, lo), hi) elementwise, where `lo` and `hi` are one-element tensors of x's type or
// nullptr for no bound. NaN stays NaN; when lo > hi every element becomes hi, as numpy.clip.
StatusOr<Tensor> Clip(const Tensor& x, const Tensor* lo, const Tensor* hi);

class ClipKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ClipKernel(bool bounds_are_inputs, std::optional<float> lo, std::optional<float> hi)
      : bounds_are_inputs_(bounds_are_inputs), lo_attr_(lo), hi_attr_(hi) {}

  bool bounds_are_inputs_;
  // The `min` and `max` attributes of Clip-1 and Clip-6 (absent in Clip-1 means unbounded).
  std::optional<float> lo_attr_;
  std::optional<float> hi_attr_;
};

}  // namespace onnxgate::ref
