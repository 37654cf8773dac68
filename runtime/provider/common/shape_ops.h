// The output shapes of the ops that change only the shape, never the elements (Reshape,
// Flatten, Squeeze, Unsqueeze), as every provider computes and checks them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Reshape's output shape for `requested`: -1 (at most one) is inferred from the element count;
// 0 copies the input dim at that index, or, with `allow_zero` (Reshape-14's allowzero=1), is a
// zero dim (then -1 may not appear as well). InvalidArgument when the counts differ.
StatusOr<Shape> ReshapeShape(const Shape& input, const std::vector<int64_t>& requested,
                             bool allow_zero);

// Flatten's 2-D shape: (d_0 * ... * d_{axis-1}, d_axis * ... * d_{r-1}) for axis in [0, r]
// (negative from the back, when allowed).
StatusOr<Shape> FlattenShape(const Shape& input, int64_t axis, bool allow_negative);

// Squeeze's output shape: removes the listed dims, which must be 1; with no axes, every 1.
StatusOr<Shape> SqueezeShape(const Shape& input, const std::optional<std::vector<int64_t>>& axes,
                             bool allow_negative);

// Unsqueeze's output shape: inserts 1-dims at `axes`, which index the output (rank r + |axes|).
StatusOr<Shape> UnsqueezeShape(const Shape& input, const std::vector<int64_t>& axes,
                               bool allow_negative);

}  // namespace onnxgate
