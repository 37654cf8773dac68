// Element types as the providers' kernels compute with them: float16 and bfloat16 go through float,
// everything else computes in its own type; plus type visitors for the families the
// elementwise kernels accept and conversions that stay defined for every input value.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"

namespace onnxgate {

template <typename T>
inline constexpr bool kIsHalf = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;
template <typename T>
inline constexpr bool kIsFloat = kIsHalf<T> || std::is_floating_point_v<T>;
template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
struct ComputeTypeOf {
  using type = T;
};
template <>
struct ComputeTypeOf<Float16> {
  using type = float;
};
template <>
struct ComputeTypeOf<BFloat16> {
  using type = float;
};
template <typename T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <typename T>
inline ComputeType<T> ToCompute(T v) {
  if constexpr (kIsHalf<T>) {
    return v.ToFloat();
  } else {
    return v;
  }
}

template <typename T>
inline T FromCompute(ComputeType<T> v) {
  if constexpr (kIsHalf<T>) {
    return T::FromFloat(v);
  } else {
    return v;
  }
}

// Floating point to integer: truncates toward zero. ONNX leaves NaN and out-of-range values
// undefined; the ref EP maps NaN to 0 and saturates, so the result is deterministic.
template <typename To>
inline To SaturatingCast(double v) {
  static_assert(std::is_integral_v<To>);
  if (std::isnan(v)) return 0;
  constexpr To kMin = std::numeric_limits<To>::min();
  constexpr To kMax = std::numeric_limits<To>::max();
  // static_cast<double>(kMax) may round up (2^63 for int64), so compare with >=.
  if (v >= static_cast<double>(kMax)) return kMax;
  if (v <= static_cast<double>(kMin)) return kMin;
  return static_cast<To>(v);
}

// Integer arithmetic that wraps in two's complement like numpy (C++ leaves signed overflow
// undefined): computed on uint64, whose arithmetic is modular, and truncated back.
template <typename T>
inline T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename T>
inline T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename T>
inline T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
template <typename T>
inline T WrapNeg(T a) {
  return static_cast<T>(uint64_t{0} - static_cast<uint64_t>(a));
}

// float16, bfloat16, float, double.
template <typename Fn>
Status VisitFloatTypes(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kFloat: return fn(float{});
    case DataType::kDouble: return fn(double{});
    case DataType::kFloat16: return fn(Float16{});
    case DataType::kBFloat16: return fn(BFloat16{});
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeShortName(type) +
                       " is not a floating-point type");
}

// The floating-point types and every signed and unsigned integer width (not bool).
template <typename Fn>
Status VisitArithmeticTypes(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kInt8: return fn(int8_t{});
    case DataType::kInt16: return fn(int16_t{});
    case DataType::kInt32: return fn(int32_t{});
    case DataType::kInt64: return fn(int64_t{});
    case DataType::kUint8: return fn(uint8_t{});
    case DataType::kUint16: return fn(uint16_t{});
    case DataType::kUint32: return fn(uint32_t{});
    case DataType::kUint64: return fn(uint64_t{});
    default: break;
  }
  if (IsFloatingPoint(type)) return VisitFloatTypes(type, fn);
  return Unimplemented(std::string("data type ") + DataTypeShortName(type) +
                       " is not a numeric type");
}

}  // namespace onnxgate
