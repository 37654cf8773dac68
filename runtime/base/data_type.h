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
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
  kUint2 = 25,
  kInt2 = 26,
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

// The 8-bit floats of ONNX, each stored as its one byte of bits. FromFloat rounds to nearest even
// and follows the Cast operator's tables: with `saturate`, infinities and values beyond the largest
// finite value become +-max; without it they become infinity (E5M2) or NaN (the others). NaN stays
// NaN. The FNUZ types have no negative zero (-0 and negative values that round to 0 give 0x00), and
// their only NaN is 0x80; the other types keep the sign of zero and of NaN.
struct Float8E4M3FN {  // bias 7, no infinity, NaN 0x7F/0xFF, max 448 (0x7E)
  uint8_t bits = 0;
  static Float8E4M3FN FromFloat(float f, bool saturate = true);
  float ToFloat() const;
};
struct Float8E4M3FNUZ {  // bias 8, no infinity, no -0, NaN 0x80, max 240 (0x7F)
  uint8_t bits = 0;
  static Float8E4M3FNUZ FromFloat(float f, bool saturate = true);
  float ToFloat() const;
};
struct Float8E5M2 {  // bias 15, IEEE-like: +-inf 0x7C/0xFC, NaN 0x7D-0x7F/0xFD-0xFF, max 57344
  uint8_t bits = 0;
  static Float8E5M2 FromFloat(float f, bool saturate = true);
  float ToFloat() const;
};
struct Float8E5M2FNUZ {  // bias 16, no infinity, no -0, NaN 0x80, max 57344 (0x7F)
  uint8_t bits = 0;
  static Float8E5M2FNUZ FromFloat(float f, bool saturate = true);
  float ToFloat() const;
};

// How a float is rounded to FLOAT8E8M0 (the Cast operator's round_mode attribute).
enum class E8M0Rounding {
  kUp,       // "up": to the next power of two away from zero (ONNX's default)
  kDown,     // "down": to the power of two towards zero
  kNearest,  // "nearest": to the nearer power of two, ties up
};

// FLOAT8E8M0, the scale type of the OCP microscaling formats: an unsigned biased exponent only,
// value 2^(bits - 127), 0xFF is NaN; no sign, no zero, no infinity. FromFloat follows the Cast
// table for E8M0: NaN gives NaN; with `saturate`, infinities and values above 2^127 give 0xFE and
// 0 or values below 2^-127 give 0x00; without it they give NaN (rounding "up" of a tiny positive
// value still gives 0x00, which is a rounding, not a saturation). The sign of a negative input is
// dropped (ONNX leaves negative inputs unspecified).
struct Float8E8M0 {
  uint8_t bits = 0;
  static Float8E8M0 FromFloat(float f, bool saturate = true,
                              E8M0Rounding rounding = E8M0Rounding::kUp);
  float ToFloat() const;
};

// FLOAT4E2M1 (OCP MX FP4): a 4-bit code in the low bits of `bits`: sign bit 3, 2 exponent bits
// (bias 1), 1 mantissa bit; values +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}, no infinity, no NaN.
// FromFloat rounds to nearest even and saturates: beyond +-6 and +-inf give +-6. NaN gives 0, as
// ONNX's reference Cast (through ml_dtypes) gives a zero too. Tensors of this type are packed two
// codes per byte, so it has no DataTypeOf.
struct Float4E2M1 {
  uint8_t bits = 0;
  static Float4E2M1 FromFloat(float f);
  float ToFloat() const;
};

// The ONNX name as in TensorProto.DataType: "FLOAT", "INT64", "BFLOAT16", ...
const char* DataTypeName(DataType type);
// The name as ONNX type strings write it: "float", "int64", "bfloat16", ... ("tensor(float)" uses
// it).
const char* DataTypeShortName(DataType type);
// Parses either spelling ("FLOAT" or "float"); NotFound for anything else.
StatusOr<DataType> DataTypeFromName(const std::string& name);
// Element size in bytes; 0 for kString and kUndefined, and 0 for the packed sub-byte types
// (INT4, UINT4, FLOAT4E2M1, INT2, UINT2), whose elements share bytes: use DataTypeStorageBytes.
size_t DataTypeSize(DataType type);
// Bits of one element: 4 for INT4/UINT4/FLOAT4E2M1, 2 for INT2/UINT2, 8 * DataTypeSize otherwise
// (0 for kString and kUndefined).
int DataTypeBits(DataType type);
// INT4, UINT4, FLOAT4E2M1, INT2, UINT2: several elements per byte (see GetPackedCode below).
constexpr bool IsPackedSubByte(DataType type) {
  return type == DataType::kInt4 || type == DataType::kUint4 || type == DataType::kFloat4E2M1 ||
         type == DataType::kInt2 || type == DataType::kUint2;
}
// Bytes of storage for `n` elements: ceil(n * bits / 8); 0 for kString and kUndefined.
size_t DataTypeStorageBytes(DataType type, int64_t n);
bool IsValidDataType(int32_t value);
// float16, bfloat16, float, double: the types with native arithmetic through float. The 8-bit and
// 4-bit floats are deliberately not included (kernels rely on this); see IsLowPrecisionFloat.
bool IsFloatingPoint(DataType type);
// FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, FLOAT8E8M0, FLOAT4E2M1: floats that
// are stored as codes and decoded to float for any arithmetic or comparison.
bool IsLowPrecisionFloat(DataType type);
// The byte-sized ones of those: the four FLOAT8 types and FLOAT8E8M0.
bool IsFloat8(DataType type);
bool IsInteger(DataType type);        // signed and unsigned ints of 8 bits and more (not bool)
bool IsSignedInteger(DataType type);  // INT8 ... INT64
// INT4, UINT4, INT2, UINT2: integers stored packed; values through SubByteIntFromCode.
bool IsSubByteInteger(DataType type);
bool IsComplex(DataType type);

// Packed storage of the sub-byte types, as ONNX packs raw_data: element 2k in the low nibble of
// byte k and 2k+1 in the high nibble; 2-bit types four per byte, element 4k in bits 0-1 of byte k,
// 4k+1 in bits 2-3 and so on. `type` must satisfy IsPackedSubByte.
uint8_t GetPackedCode(DataType type, const void* packed, int64_t i);
// Stores the low DataTypeBits(type) bits of `code` as element i, leaving the others unchanged.
void SetPackedCode(DataType type, void* packed, int64_t i, uint8_t code);
// Zeroes the bits after element n-1 in the last byte of `n` packed elements (padding is zero).
void ClearPackedPadding(DataType type, void* packed, int64_t n);

// INT4 [-8, 7], UINT4 [0, 15], INT2 [-2, 1], UINT2 [0, 3]: the range of a sub-byte integer.
int32_t SubByteIntMin(DataType type);
int32_t SubByteIntMax(DataType type);
// The value of a code (two's complement for INT4/INT2).
int32_t SubByteIntFromCode(DataType type, uint8_t code);
// The code of a value; InvalidArgument naming the type and range when it is out of range.
StatusOr<uint8_t> SubByteIntToCode(DataType type, int64_t value);

// The value of a FLOAT8 or FLOAT8E8M0 byte, or of a FLOAT4E2M1 code, as float; `type` must
// satisfy IsLowPrecisionFloat.
float LowPrecisionFloatToFloat(DataType type, uint8_t code);

// Maps a C++ element type to its DataType.
template <typename T>
struct DataTypeOf;
template <>
struct DataTypeOf<float> {
  static constexpr DataType value = DataType::kFloat;
};
template <>
struct DataTypeOf<double> {
  static constexpr DataType value = DataType::kDouble;
};
template <>
struct DataTypeOf<Float16> {
  static constexpr DataType value = DataType::kFloat16;
};
template <>
struct DataTypeOf<BFloat16> {
  static constexpr DataType value = DataType::kBFloat16;
};
template <>
struct DataTypeOf<Float8E4M3FN> {
  static constexpr DataType value = DataType::kFloat8E4M3FN;
};
template <>
struct DataTypeOf<Float8E4M3FNUZ> {
  static constexpr DataType value = DataType::kFloat8E4M3FNUZ;
};
template <>
struct DataTypeOf<Float8E5M2> {
  static constexpr DataType value = DataType::kFloat8E5M2;
};
template <>
struct DataTypeOf<Float8E5M2FNUZ> {
  static constexpr DataType value = DataType::kFloat8E5M2FNUZ;
};
template <>
struct DataTypeOf<Float8E8M0> {
  static constexpr DataType value = DataType::kFloat8E8M0;
};
template <>
struct DataTypeOf<int8_t> {
  static constexpr DataType value = DataType::kInt8;
};
template <>
struct DataTypeOf<int16_t> {
  static constexpr DataType value = DataType::kInt16;
};
template <>
struct DataTypeOf<int32_t> {
  static constexpr DataType value = DataType::kInt32;
};
template <>
struct DataTypeOf<int64_t> {
  static constexpr DataType value = DataType::kInt64;
};
template <>
struct DataTypeOf<uint8_t> {
  static constexpr DataType value = DataType::kUint8;
};
template <>
struct DataTypeOf<uint16_t> {
  static constexpr DataType value = DataType::kUint16;
};
template <>
struct DataTypeOf<uint32_t> {
  static constexpr DataType value = DataType::kUint32;
};
template <>
struct DataTypeOf<uint64_t> {
  static constexpr DataType value = DataType::kUint64;
};
template <>
struct DataTypeOf<bool> {
  static constexpr DataType value = DataType::kBool;
};
template <>
struct DataTypeOf<std::string> {
  static constexpr DataType value = DataType::kString;
};
template <>
struct DataTypeOf<std::complex<float>> {
  static constexpr DataType value = DataType::kComplex64;
};
template <>
struct DataTypeOf<std::complex<double>> {
  static constexpr DataType value = DataType::kComplex128;
};

// Calls fn(T{}) with T the C++ type of `type`. Each Visit* handles a family and returns
// Unimplemented naming the type for anything outside it.
//
// VisitAllTypes covers the types that kernels handle generically. The 8-bit floats have C++ types
// (VisitFloat8Types) but no arithmetic, and the packed sub-byte types have none at all (their
// elements go through GetPackedCode), so handing them to generic kernel code would not compile or
// would read packed bytes as whole elements: for those it returns Unimplemented.
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
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2:
      return Unimplemented(std::string("data type ") + DataTypeName(type) +
                           " is not supported here yet (no kernel-ready C++ element type)");
    case DataType::kUndefined: break;
  }
  return Unimplemented(std::string("no C++ type for data type ") + DataTypeName(type));
}

// The byte-sized low-precision floats: FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ,
// FLOAT8E8M0.
template <typename Fn>
Status VisitFloat8Types(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kFloat8E4M3FN: return fn(Float8E4M3FN{});
    case DataType::kFloat8E4M3FNUZ: return fn(Float8E4M3FNUZ{});
    case DataType::kFloat8E5M2: return fn(Float8E5M2{});
    case DataType::kFloat8E5M2FNUZ: return fn(Float8E5M2FNUZ{});
    case DataType::kFloat8E8M0: return fn(Float8E8M0{});
    default: break;
  }
  return Unimplemented(std::string("data type ") + DataTypeName(type) + " is not an 8-bit float");
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
  return Unimplemented(std::string("data type ") + DataTypeName(type) +
                       " is not a plain numeric type");
}

}  // namespace onnxgate
