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
inline constexpr DataType kF8E4M3FN = DataType::kFloat8E4M3FN;
inline constexpr DataType kF8E4M3FNUZ = DataType::kFloat8E4M3FNUZ;
inline constexpr DataType kF8E5M2 = DataType::kFloat8E5M2;
inline constexpr DataType kF8E5M2FNUZ = DataType::kFloat8E5M2FNUZ;
inline constexpr DataType kF8E8M0 = DataType::kFloat8E8M0;
inline constexpr DataType kF4E2M1 = DataType::kFloat4E2M1;
inline constexpr DataType kU4 = DataType::kUint4;
inline constexpr DataType kI4 = DataType::kInt4;
inline constexpr DataType kU2 = DataType::kUint2;
inline constexpr DataType kI2 = DataType::kInt2;

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
// The four FLOAT8 types of opset 19.
inline List F8() { return {kF8E4M3FN, kF8E4M3FNUZ, kF8E5M2, kF8E5M2FNUZ}; }
// ONNX's "all types" lists as they grew: FLOAT8 in opset 19, INT4/UINT4 in 21, FLOAT4E2M1 in
// 23, FLOAT8E8M0 in 24, INT2/UINT2 in 25.
inline List AllThrough(int opset) {
  List types = All();
  if (opset >= 19) types = types + F8();
  if (opset >= 21) types = types + List{kU4, kI4};
  if (opset >= 23) types = types + List{kF4E2M1};
  if (opset >= 24) types = types + List{kF8E8M0};
  if (opset >= 25) types = types + List{kU2, kI2};
  return types;
}

}  // namespace onnxgate::ref::types
