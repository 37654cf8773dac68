// ConvTranspose: N-D grouped transposed convolution with pads, strides, dilations,
// output_padding, output_shape, auto_pad and an optional bias.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/conv_transpose_attributes.h"

namespace onnxgate::ref {

class ConvTranspose : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit ConvTranspose(ConvTransposeAttributes attrs) : attrs_(std::move(attrs)) {}

  ConvTransposeAttributes attrs_;
};

}  // namespace onnxgate::ref
