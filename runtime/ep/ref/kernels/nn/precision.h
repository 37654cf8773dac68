// Rounding a double to the precision of a floating-point element type, for kernels that compute
// in double but follow a function body whose every step yields a tensor of that type.
#pragma once

#include <cmath>
#include <limits>

#include "runtime/base/data_type.h"

namespace onnxgate::ref {

// `v` rounded to nearest even in `type` (float16, bfloat16, float; double and every other type
// leave it unchanged). Values beyond float's range become infinities, as IEEE rounding gives.
inline double RoundToPrecision(DataType type, double v) {
  if (type != DataType::kFloat && type != DataType::kFloat16 && type != DataType::kBFloat16) {
    return v;
  }
  // float's largest finite value plus half an ulp: from here on, rounding gives infinity.
  const double overflow =
      static_cast<double>(std::numeric_limits<float>::max()) + std::ldexp(1.0, 103);
  float f;
  if (std::isnan(v)) {
    f = std::numeric_limits<float>::quiet_NaN();
  } else if (std::abs(v) >= overflow) {
    f = v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
  } else {
    f = static_cast<float>(v);
  }
  if (type == DataType::kFloat16) return Float16::FromFloat(f).ToFloat();
  if (type == DataType::kBFloat16) return BFloat16::FromFloat(f).ToFloat();
  return f;
}

}  // namespace onnxgate::ref
