// ConvInteger and QLinearConv: N-D grouped convolution of 8-bit quantized inputs, with the
// attributes of Conv (kernel_shape, pads, strides, dilations, auto_pad, group).
#pragma once

#include <memory>

#include "runtime/provider/common/conv_attributes.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// One kernel class for both ops: `qlinear` selects QLinearConv's inputs (x, x_scale,
// x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B) over ConvInteger's
// (x, w, x_zero_point, w_zero_point).
class QuantizedConvKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  QuantizedConvKernel(bool qlinear, ConvPoolAttributes attrs, int64_t group)
      : qlinear_(qlinear), attrs_(std::move(attrs)), group_(group) {}
  bool qlinear_;
  ConvPoolAttributes attrs_;
  int64_t group_;
};

}  // namespace onnxgate::ref
