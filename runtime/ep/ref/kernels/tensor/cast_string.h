// Text <-> number conversions for Cast: numbers are written as numpy's str() writes scalars
// (shortest round-trip digits) and strings are parsed with ONNX's special literals for
// infinities and NaN.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"

namespace onnxgate::ref {

// A float16, bfloat16, float or double as text: the fewest significant digits that read back as
// the same value of that type; positional when 1e-4 <= |v| < 1e16 or v is 0 ("0.1", "100.0",
// "-0.0"), scientific otherwise ("1e-07", "1.5e+20"); NaN is "NaN" (ONNX's literal), the
// infinities "inf" and "-inf".
std::string FloatToText(double v, DataType type);

// Integers in decimal; bool as "True" / "False" (numpy's str of a bool).
template <typename T>
std::string IntegerToText(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "True" : "False";
  } else {
    return std::to_string(v);
  }
}

// Parses decimal text (plain or scientific, optional sign, surrounding whitespace allowed) into
// the nearest value of the float type `type` (float16/bfloat16/float/double), returned as double
// (exactly representable in `type`). "NaN", "INF", "+INF", "-INF" and "Infinity" are accepted in
// any letter case. InvalidArgument when the text is not a number.
StatusOr<double> ParseFloatText(const std::string& text, DataType type);

// Parses text into an integer type: an integer literal gives that integer (saturated to the
// type's range), other numeric text is parsed as a float and truncated toward zero, as the ONNX
// Cast spec allows ("100.5" -> 100).
template <typename T>
StatusOr<T> ParseIntegerText(const std::string& text);

// "True"/"False" in any letter case, otherwise any number (nonzero and NaN are true).
StatusOr<bool> ParseBoolText(const std::string& text);

// double -> float rounded "to odd" (truncated, the last mantissa bit set when bits were lost;
// finite values beyond float's range give +-FLT_MAX), so that a second rounding to nearest even
// into a narrower type (float16, bfloat16, the 8-bit floats) rounds once in effect (a plain
// double -> float -> half conversion rounds twice and can be off by one unit in the last place).
float RoundToOddFloat(double d);

}  // namespace onnxgate::ref
