// ConvTranspose's attributes (Conv's, group, output_padding, output_shape), their checks against
// the shapes of X, W and B, and the geometry of the convolution a ConvTranspose is the adjoint
// of: read once here, so every provider validates a node alike.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate {

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
// absent).
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

}  // namespace onnxgate
