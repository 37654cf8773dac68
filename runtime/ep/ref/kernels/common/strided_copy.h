// Data movement by strided walk, for every element type (numbers, bool, string, complex): the
// core of Transpose, Slice, Expand and Tile.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate::ref {

// Walks `dst` in row-major order and copies dst[i] = src[base + sum_d index_d * strides[d]],
// where index is the multi-index of i in `walk_dims` (whose product is dst's element count) and
// strides has one entry per walk dim. src and dst share the element type. The caller guarantees
// that every offset lies inside src.
void CopyStrided(const Tensor& src, const std::vector<int64_t>& walk_dims,
                 const std::vector<int64_t>& strides, int64_t base, Tensor* dst);

}  // namespace onnxgate::ref
