// DataType: every ONNX tensor element type, numbered exactly as onnx.proto's TensorProto.DataType.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
};

// IEEE 754 binary16, stored as its bits. Arithmetic goes through float.
struct Float16 {
  uint16_t bits = 0;
  static Float16 FromFloat(float f);
  float ToFloat() const;
};

// bfloat16 (the upper half of a float32), stored as its bits; conversion rounds to nearest even.
struct BFloat16 {
  uint16_t bits = 0;
  static BFloat16 FromFloat(float f);
  float ToFloat() const;
};

// The ONNX name as in TensorProto.DataType: "FLOAT", "INT64", "BFLOAT16", ...
const char* DataTypeName(DataType type);
// The name as ONNX type strings write it: "float", "int64", "bfloat16", ... ("tensor(float)" uses it).
const char* DataTypeShortName(DataType type);
// Parses either spelling ("FLOAT" or "float"); NotFound for anything else.
StatusOr<DataType> DataTypeFromName(const std::string& name);
// Element size in bytes; 0 for kString and kUndefined.
size_t DataTypeSize(DataType type);
bool IsValidDataType(int32_t value);
bool IsFloatingPoint(DataType type);  // float16, bfloat16, float, double
bool IsInteger(DataType type);        // signed and unsigned ints (not bool)
bool IsSignedInteger(DataType type);
bool IsComplex(DataType type);

// Maps a C++ element type to its DataType.
template <typename T> struct DataTypeOf;
template <> struct DataTypeOf<float> { static constexpr DataType value = DataType::kFloat; };
template <> struct DataTypeOf<double> { static constexpr DataType value = DataType::kDouble; };
template <> struct DataTypeOf<Float16> { static constexpr DataType value = DataType::kFloat16; };
template <> struct DataTypeOf<BFloat16> { static constexpr DataType value = DataType::kBFloat16; };
template <> struct DataTypeOf<int8_t> { static constexpr DataType value = DataType::kInt8; };
template <> struct DataTypeOf<int16_t> { static constexpr DataType value = DataType::kInt16; };
template <> struct DataTypeOf<int32_t> { static constexpr DataType value = DataType::kInt32; };
template <> struct DataTypeOf<int64_t> { static constexpr DataType value = DataType::kInt64; };
template <> struct DataTypeOf<uint8_t> { static constexpr DataType value = DataType::kUint8; };
template <> struct DataTypeOf<uint16_t> { static constexpr DataType value = DataType::kUint16; };
template <> struct DataTypeOf<uint32_t> { static constexpr DataType value = DataType::kUint32; };
template <> struct DataTypeOf<uint64_t> { static constexpr DataType value = DataType::kUint64; };
template <> struct DataTypeOf<bool> { static constexpr DataType value = DataType::kBool; };
template <> struct DataTypeOf<std::string> { static constexpr DataType value = DataType::kString; };
template <> struct DataTypeOf<std::complex<float>> { static constexpr DataType value = DataType::kComplex64; };
template <> struct DataTypeOf<std::complex<double>> { static constexpr DataType value = DataType::kComplex128; };

// Calls fn(T{}) with T the C++ type of `type`. Each Visit* handles a family and returns
// Unimplemented naming the type for anything outside it.
template <typename Fn>
Status VisitAllTypes(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kFloat: return fn(float{});
    case DataType::kDouble: return fn(double{});
    case DataType::kFloat16: return fn(Float16{});
    case DataType::kBFloat16: return fn(BFloat16{});
    case DataType::kInt8: return fn(int8_t{});
    case DataType::kInt16: return fn(int16_t{});
    case DataType::kInt32: return fn(int32_t{});
    case DataType::kInt64: return fn(int64_t{});
    case DataType::kUint8: return fn(uint8_t{});
    case DataType::kUint16: return fn(uint16_t{});
    case DataType::kUint32: return fn(uint32_t{});
    case DataType::kUint64: return fn(uint64_t{});
    case DataType::kBool: return fn(bool{});
    case DataType::kString: return fn(std::string{});
    case DataType::kComplex64: return fn(std::complex<float>{});
    case DataType::kComplex128: return fn(std::complex<double>{});
    case DataType::kUndefined: break;
  }
  return Unimplemented(std::string("no C++ type for data type ") + DataTypeName(type));
}

// Numeric types with native C++ arithmetic: float, double, all ints (not bool, halfs, strings).
template <typename Fn>
Status VisitNumericTypes(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kFloat: return fn(float{});
    case DataType::kDouble: return fn(double{});
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
  return Unimplemented(std::string("data type ") + DataTypeName(type) + " is not a plain numeric type");
}

}  // namespace onnxgate
