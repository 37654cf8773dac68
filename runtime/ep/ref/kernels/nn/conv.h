// Conv: N-D grouped convolution (cross-correlation as ONNX defines it) with pads, strides,
// dilations, auto_pad, an optional bias, and kernel_shape inferred from W when absent.
#pragma once

#include <memory>

#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate::ref {

class Conv : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  Conv(ConvPoolAttributes attrs, int64_t group) : attrs_(std::move(attrs)), group_(group) {}

  ConvPoolAttributes attrs_;
  int64_t group_;
};

}  // namespace onnxgate::ref
