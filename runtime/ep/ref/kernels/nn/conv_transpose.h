// ConvTranspose: N-D grouped transposed convolution with pads, strides, dilations,
// output_padding, output_shape, auto_pad and an optional bias.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/ref/kernels/nn/conv_attributes.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref_nn {

// The geometry of a transposed convolution seen as the convolution it is the adjoint of:
// `input` is ConvTranspose's output (Y) and `output` its input (X). Pads may be negative when
// auto_pad or output_shape ask for a Y larger than the kernel can reach.
// `output_shape` holds the spatial dims (or N, C and the spatial dims), empty when absent.
StatusOr<WindowGeometry> ResolveTransposedGeometry(const ConvPoolAttributes& attrs,
                                                   const std::vector<int64_t>& output_padding,
                                                   const std::vector<int64_t>& output_shape,
                                                   const std::vector<int64_t>& x_spatial,
                                                   const std::vector<int64_t>& kernel);

class ConvTranspose : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConvTranspose(ConvPoolAttributes attrs, int64_t group, std::vector<int64_t> output_padding,
                std::vector<int64_t> output_shape)
      : attrs_(std::move(attrs)),
        group_(group),
        output_padding_(std::move(output_padding)),
        output_shape_(std::move(output_shape)) {}

  ConvPoolAttributes attrs_;
  int64_t group_;
  std::vector<int64_t> output_padding_;
  std::vector<int64_t> output_shape_;
};

}  // namespace onnxgate::ref_nn
