// ConvTranspose: N-D grouped transposed convolution with pads, strides, dilations,
// output_padding, output_shape, auto_pad and an optional bias.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
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

// ConvTranspose's attributes: Conv's, group, and output_padding and output_shape (empty when
// absent). Shared with the dnnl EP's kernel, so both providers validate a node alike.
struct ConvTransposeAttributes {
  ConvPoolAttributes conv;
  int64_t group = 1;
  std::vector<int64_t> output_padding;
  std::vector<int64_t> output_shape;
};
StatusOr<ConvTransposeAttributes> ParseConvTransposeAttributes(const KernelInfo& info);

// The shapes of X [N, C, x...], W [C, M / group, kernel...] and B [M] (null when absent) checked
// against each other and the attributes, with Y's shape [N, M, y...] and the geometry
// (ResolveTransposedGeometry) they give.
struct ConvTransposeShapes {
  int64_t n = 0, c = 0, m = 0;
  WindowGeometry g;
  Shape y;
};
StatusOr<ConvTransposeShapes> ResolveConvTransposeShapes(const ConvTransposeAttributes& attrs,
                                                         const Shape& x, const Shape& w,
                                                         const Shape* b);

class ConvTranspose : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit ConvTranspose(ConvTransposeAttributes attrs) : attrs_(std::move(attrs)) {}

  ConvTransposeAttributes attrs_;
};

}  // namespace onnxgate::ref_nn
