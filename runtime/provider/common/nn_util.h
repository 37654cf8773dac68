// Helpers the providers' kernels share for computing in double: tensors widened to double
// buffers and back, unidirectional broadcasting, and dims for messages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate {

// The elements of a float16, bfloat16, float, double, FLOAT8 (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ)
// or integer tensor, widened to double.
// The nn kernels compute in double so that float32 sums do not drift on long reductions.
// Unimplemented for bool, string and complex tensors.
StatusOr<std::vector<double>> ToDoubles(const Tensor& t);

// A tensor of `dtype` and `shape` holding `values` rounded (or, for integers, truncated) to
// `dtype`; the FLOAT8 types saturate as Cast's default does. `values` must hold exactly
// shape.NumElements() elements.
StatusOr<Tensor> FromDoubles(DataType dtype, const Shape& shape, const std::vector<double>& values);

// For every flat index of `to`, the flat index of the element of `from` that unidirectional
// (numpy-style, right-aligned) broadcasting maps onto it. InvalidArgument when `from` does not
// broadcast to `to` (a dim that is neither 1 nor equal, or a higher rank).
StatusOr<std::vector<int64_t>> UnidirectionalBroadcastIndex(const Shape& from, const Shape& to);

// "[1,2,3]" for messages.
std::string DimsToString(const std::vector<int64_t>& dims);

}  // namespace onnxgate
