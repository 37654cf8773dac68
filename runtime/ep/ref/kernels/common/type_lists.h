// Short names for the element-type lists of the ref EP's registration tables, so that each
// table line reads like the ONNX schema's type constraint it transcribes.
#pragma once

#include <vector>

#include "runtime/base/data_type.h"

namespace onnxgate::ref::types {

using List = std::vector<DataType>;

inline constexpr DataType kF16 = DataType::kFloat16;
inline constexpr DataType kBF16 = DataType::kBFloat16;
inline constexpr DataType kF32 = DataType::kFloat;
inline constexpr DataType kF64 = DataType::kDouble;
inline constexpr DataType kI8 = DataType::kInt8;
inline constexpr DataType kI16 = DataType::kInt16;
inline constexpr DataType kI32 = DataType::kInt32;
inline constexpr DataType kI64 = DataType::kInt64;
inline constexpr DataType kU8 = DataType::kUint8;
inline constexpr DataType kU16 = DataType::kUint16;
inline constexpr DataType kU32 = DataType::kUint32;
inline constexpr DataType kU64 = DataType::kUint64;
inline constexpr DataType kBool = DataType::kBool;
inline constexpr DataType kStr = DataType::kString;
inline constexpr DataType kC64 = DataType::kComplex64;
inline constexpr DataType kC128 = DataType::kComplex128;

// a followed by b.
inline List operator+(List a, const List& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// float16, float, double: the float types of the early opsets.
inline List F3() { return {kF16, kF32, kF64}; }
// F3 plus bfloat16, added across the ops in opset 13.
inline List F4() { return {kF16, kF32, kF64, kBF16}; }
inline List Ints() { return {kI8, kI16, kI32, kI64, kU8, kU16, kU32, kU64}; }
// Every tensor type ONNX 1.12 lists for "all types" constraints before bfloat16 joined them.
inline List AllNoBF16() { return Ints() + F3() + List{kStr, kBool, kC64, kC128}; }
inline List All() { return AllNoBF16() + List{kBF16}; }

}  // namespace onnxgate::ref::types
