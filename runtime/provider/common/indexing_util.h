// Helpers shared by the providers' quantization, resampling and indexing kernels: rounding and
// saturation as ONNX's quantization ops define them, storing interpolated doubles back into any
// numeric element type, and reading float and integer lists out of small tensors.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate {

// Rounds to the nearest integer, ties to the even neighbour (numpy.rint, IEEE default), without
// depending on the floating-point environment's rounding mode.
inline double RoundHalfToEven(double v) {
  if (!std::isfinite(v)) return v;
  const double floor = std::floor(v);
  const double diff = v - floor;
  if (diff > 0.5) return floor + 1.0;
  if (diff < 0.5) return floor;
  return std::fmod(floor, 2.0) == 0.0 ? floor : floor + 1.0;
}

// Clamps `v` into the range of integer type Q (NaN goes to 0), the saturation of QuantizeLinear.
template <typename Q>
inline Q SaturateTo(double v) {
  static_assert(std::is_integral_v<Q>);
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<Q>::min())) return std::numeric_limits<Q>::min();
  if (v >= static_cast<double>(std::numeric_limits<Q>::max())) return std::numeric_limits<Q>::max();
  return static_cast<Q>(v);
}

// Stores a value computed in double (an interpolation, a weighted sum) as element type T: float
// types round once from double; integer types round half to even and saturate, since ONNX does
// not define truncation for resampled integers and rounding is the error-minimising choice.
template <typename T>
inline T StoreAs(double v) {
  if constexpr (kIsHalf<T>) {
    return T::FromFloat(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    static_assert(kIsInt<T>);
    return SaturateTo<T>(RoundHalfToEven(v));
  }
}

template <typename T>
inline double LoadAsDouble(T v) {
  return static_cast<double>(ToCompute(v));
}

// The elements of a float16, bfloat16, float or double tensor as doubles; InvalidArgument naming
// `name` for any other element type.
StatusOr<std::vector<double>> FloatsOf(const Tensor& t, const char* name);

// The single element of a float tensor (rank 0, or any shape holding one element).
StatusOr<double> FloatScalarOf(const Tensor& t, const char* name);

// The single element of an integer tensor (rank 0, or any shape holding one element).
StatusOr<int64_t> IntScalarOf(const Tensor& t, const char* name);

// A tensor of `shape` and src's element type (any type) whose element i is src's element
// from[i], or, where from[i] is -1, the single element of `fill` (which must then be given and
// share src's type). The pure-movement ops (Pad, DepthToSpace, GatherElements, Compress, nearest
// Resize, ...) all reduce to computing `from`.
StatusOr<Tensor> TakeElements(const Tensor& src, const Shape& shape,
                              const std::vector<int64_t>& from, const Tensor* fill = nullptr);

// For an output whose axis d has maps[d].size() entries, the flat index into a row-major tensor
// of shape `in` that each output element reads: the sum over d of maps[d][o_d] * stride_d, or
// -1 where any maps[d][o_d] is -1 (an element with no source, filled by TakeElements).
std::vector<int64_t> FlatIndexFromAxisMaps(const Shape& in,
                                           const std::vector<std::vector<int64_t>>& maps);

}  // namespace onnxgate
