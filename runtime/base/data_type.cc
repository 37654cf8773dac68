// DataType names, sizes and predicates; Float16/BFloat16 conversions through Eigen's types; the
// 8-bit and 4-bit float codecs; packed sub-byte element access.
#include "runtime/base/data_type.h"

#include <Eigen/Core>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

namespace onnxgate {

Float16 Float16::FromFloat(float f) {
  Float16 h;
  h.bits = Eigen::numext::bit_cast<uint16_t>(Eigen::half(f));
  return h;
}
float Float16::ToFloat() const {
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits));
}
BFloat16 BFloat16::FromFloat(float f) {
  BFloat16 b;
  b.bits = Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(f));
  return b;
}
float BFloat16::ToFloat() const {
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(bits));
}

namespace {

constexpr float kFloatNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kFloatInf = std::numeric_limits<float>::infinity();

// The layout of one of the small float formats, enough to decode any code.
struct SmallFloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool ieee_specials;  // all-ones exponent: infinity (mantissa 0) or NaN (E5M2)
  bool fnuz;           // the sign bit with all else zero is the one NaN; no -0, no infinity
  bool fn;             // only all-ones exponent and mantissa is NaN (E4M3FN)
  bool has_nan;        // false for FLOAT4E2M1
  uint8_t max_code;    // the largest finite positive code
};

constexpr SmallFloatFormat kE4M3FN{4, 3, 7, false, false, true, true, 0x7E};
constexpr SmallFloatFormat kE4M3FNUZ{4, 3, 8, false, true, false, true, 0x7F};
constexpr SmallFloatFormat kE5M2{5, 2, 15, true, false, false, true, 0x7B};
constexpr SmallFloatFormat kE5M2FNUZ{5, 2, 16, false, true, false, true, 0x7F};
constexpr SmallFloatFormat kE2M1{2, 1, 1, false, false, false, false, 0x7};

int SignBit(const SmallFloatFormat& f) { return f.exponent_bits + f.mantissa_bits; }

float Decode(const SmallFloatFormat& f, uint8_t code) {
  const uint8_t sign_mask = static_cast<uint8_t>(1u << SignBit(f));
  if (f.fnuz && code == sign_mask) return kFloatNaN;
  const bool negative = (code & sign_mask) != 0;
  const int exponent_mask = (1 << f.exponent_bits) - 1;
  const int mantissa_mask = (1 << f.mantissa_bits) - 1;
  const int exponent = (code >> f.mantissa_bits) & exponent_mask;
  const int mantissa = code & mantissa_mask;
  float magnitude;
  if (f.ieee_specials && exponent == exponent_mask) {
    magnitude = mantissa == 0 ? kFloatInf : kFloatNaN;
  } else if (f.fn && exponent == exponent_mask && mantissa == mantissa_mask) {
    magnitude = kFloatNaN;
  } else if (exponent == 0) {
    // Subnormal: no implicit leading one, the exponent of the smallest normal.
    magnitude = std::ldexp(static_cast<float>(mantissa), 1 - f.bias - f.mantissa_bits);
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa + (1 << f.mantissa_bits)),
                           exponent - f.bias - f.mantissa_bits);
  }
  return negative ? -magnitude : magnitude;
}

// The code of a finite, non-negative `a` rounded to nearest even among codes 0..max_code, or -1
// when it overflows (rounds beyond the largest finite value).
int RoundMagnitude(const SmallFloatFormat& f, double a) {
  // Codes 0..max_code decode to increasing values, so the nearest code is found by bisection.
  int lo = 0, hi = f.max_code;
  if (a >= Decode(f, f.max_code)) {
    double top = Decode(f, f.max_code);
    double half_step = (top - Decode(f, f.max_code - 1)) / 2;
    if (a < top + half_step) return f.max_code;
    if (a == top + half_step && (f.max_code & 1) == 0) return f.max_code;  // tie to even
    return -1;
  }
  while (hi - lo > 1) {  // invariant: value(lo) <= a < value(hi)
    int mid = (lo + hi) / 2;
    if (Decode(f, static_cast<uint8_t>(mid)) <= a) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  // Both differences are exact in double: a lies between two neighbouring codes' values.
  double below = a - Decode(f, static_cast<uint8_t>(lo));
  double above = Decode(f, static_cast<uint8_t>(hi)) - a;
  if (below < above) return lo;
  if (above < below) return hi;
  return (lo & 1) == 0 ? lo : hi;  // the even code has the even last mantissa bit
}

uint8_t NaNCode(const SmallFloatFormat& f, bool negative) {
  const uint8_t sign = static_cast<uint8_t>(negative ? 1u << SignBit(f) : 0u);
  if (f.fnuz) return static_cast<uint8_t>(1u << SignBit(f));
  // All-ones exponent and mantissa: NaN for E4M3FN and E5M2.
  return static_cast<uint8_t>(sign | ((1u << SignBit(f)) - 1));
}

uint8_t Encode(const SmallFloatFormat& f, float x, bool saturate) {
  const bool negative = std::signbit(x);
  const uint8_t sign = static_cast<uint8_t>(negative ? 1u << SignBit(f) : 0u);
  if (std::isnan(x)) {
    // Without a NaN code (FLOAT4E2M1) NaN becomes zero, as in ONNX's reference implementation.
    return f.has_nan ? NaNCode(f, negative) : 0;
  }
  int code = std::isinf(x) ? -1 : RoundMagnitude(f, std::fabs(static_cast<double>(x)));
  if (code < 0) {  // infinity, or a finite value that rounds beyond the largest finite one
    if (saturate || !f.has_nan) return static_cast<uint8_t>(sign | f.max_code);
    if (f.ieee_specials) return static_cast<uint8_t>(sign | (f.max_code + 1));  // infinity
    return NaNCode(f, negative);
  }
  if (code == 0 && f.fnuz) return 0;  // no negative zero: -0 and tiny negatives give +0
  return static_cast<uint8_t>(sign | code);
}

}  // namespace

Float8E4M3FN Float8E4M3FN::FromFloat(float f, bool saturate) {
  return Float8E4M3FN{Encode(kE4M3FN, f, saturate)};
}
float Float8E4M3FN::ToFloat() const { return Decode(kE4M3FN, bits); }
Float8E4M3FNUZ Float8E4M3FNUZ::FromFloat(float f, bool saturate) {
  return Float8E4M3FNUZ{Encode(kE4M3FNUZ, f, saturate)};
}
float Float8E4M3FNUZ::ToFloat() const { return Decode(kE4M3FNUZ, bits); }
Float8E5M2 Float8E5M2::FromFloat(float f, bool saturate) {
  return Float8E5M2{Encode(kE5M2, f, saturate)};
}
float Float8E5M2::ToFloat() const { return Decode(kE5M2, bits); }
Float8E5M2FNUZ Float8E5M2FNUZ::FromFloat(float f, bool saturate) {
  return Float8E5M2FNUZ{Encode(kE5M2FNUZ, f, saturate)};
}
float Float8E5M2FNUZ::ToFloat() const { return Decode(kE5M2FNUZ, bits); }
Float4E2M1 Float4E2M1::FromFloat(float f) { return Float4E2M1{Encode(kE2M1, f, true)}; }
float Float4E2M1::ToFloat() const { return Decode(kE2M1, static_cast<uint8_t>(bits & 0x0F)); }

Float8E8M0 Float8E8M0::FromFloat(float f, bool saturate, E8M0Rounding rounding) {
  constexpr uint8_t kNaN = 0xFF, kMax = 0xFE, kMin = 0x00;
  if (std::isnan(f)) return Float8E8M0{kNaN};
  if (std::isinf(f)) return Float8E8M0{saturate ? kMax : kNaN};
  const float a = std::fabs(f);
  if (a == 0) return Float8E8M0{saturate ? kMin : kNaN};
  // a = m * 2^k with m in [0.5, 1): the power of two at or below a is 2^(k-1), and a / 2^(k-1)
  // = 2m in [1, 2) says how far above it a lies.
  int k = 0;
  const double m = std::frexp(static_cast<double>(a), &k);
  int code = (k - 1) + 127;
  const double ratio = 2 * m;
  switch (rounding) {
    case E8M0Rounding::kUp: code += ratio > 1 ? 1 : 0; break;
    case E8M0Rounding::kDown: break;
    case E8M0Rounding::kNearest: code += ratio >= 1.5 ? 1 : 0; break;
  }
  if (code < 0) {
    // Below 2^-127. Rounding up lands on the smallest value; the other modes underflow.
    if (rounding == E8M0Rounding::kUp) return Float8E8M0{kMin};
    return Float8E8M0{saturate ? kMin : kNaN};
  }
  if (code > kMax) return Float8E8M0{saturate ? kMax : kNaN};
  return Float8E8M0{static_cast<uint8_t>(code)};
}
float Float8E8M0::ToFloat() const {
  if (bits == 0xFF) return kFloatNaN;
  return std::ldexp(1.0f, static_cast<int>(bits) - 127);
}

namespace {
struct TypeInfo {
  DataType type;
  const char* name;
  const char* short_name;
  size_t size;
};
constexpr TypeInfo kTypes[] = {
    {DataType::kUndefined, "UNDEFINED", "undefined", 0},
    {DataType::kFloat, "FLOAT", "float", 4},
    {DataType::kUint8, "UINT8", "uint8", 1},
    {DataType::kInt8, "INT8", "int8", 1},
    {DataType::kUint16, "UINT16", "uint16", 2},
    {DataType::kInt16, "INT16", "int16", 2},
    {DataType::kInt32, "INT32", "int32", 4},
    {DataType::kInt64, "INT64", "int64", 8},
    {DataType::kString, "STRING", "string", 0},
    {DataType::kBool, "BOOL", "bool", 1},
    {DataType::kFloat16, "FLOAT16", "float16", 2},
    {DataType::kDouble, "DOUBLE", "double", 8},
    {DataType::kUint32, "UINT32", "uint32", 4},
    {DataType::kUint64, "UINT64", "uint64", 8},
    {DataType::kComplex64, "COMPLEX64", "complex64", 8},
    {DataType::kComplex128, "COMPLEX128", "complex128", 16},
    {DataType::kBFloat16, "BFLOAT16", "bfloat16", 2},
    {DataType::kFloat8E4M3FN, "FLOAT8E4M3FN", "float8e4m3fn", 1},
    {DataType::kFloat8E4M3FNUZ, "FLOAT8E4M3FNUZ", "float8e4m3fnuz", 1},
    {DataType::kFloat8E5M2, "FLOAT8E5M2", "float8e5m2", 1},
    {DataType::kFloat8E5M2FNUZ, "FLOAT8E5M2FNUZ", "float8e5m2fnuz", 1},
    {DataType::kUint4, "UINT4", "uint4", 0},
    {DataType::kInt4, "INT4", "int4", 0},
    {DataType::kFloat4E2M1, "FLOAT4E2M1", "float4e2m1", 0},
    {DataType::kFloat8E8M0, "FLOAT8E8M0", "float8e8m0", 1},
    {DataType::kUint2, "UINT2", "uint2", 0},
    {DataType::kInt2, "INT2", "int2", 0},
};
constexpr int32_t kLastDataType = 26;
const TypeInfo& Info(DataType type) {
  int32_t v = static_cast<int32_t>(type);
  if (v < 0 || v > kLastDataType) return kTypes[0];
  return kTypes[v];
}
}  // namespace

const char* DataTypeName(DataType type) { return Info(type).name; }
const char* DataTypeShortName(DataType type) { return Info(type).short_name; }
size_t DataTypeSize(DataType type) { return Info(type).size; }

int DataTypeBits(DataType type) {
  switch (type) {
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kFloat4E2M1: return 4;
    case DataType::kInt2:
    case DataType::kUint2: return 2;
    default: return static_cast<int>(8 * DataTypeSize(type));
  }
}

size_t DataTypeStorageBytes(DataType type, int64_t n) {
  if (n <= 0) return 0;
  const uint64_t bits = static_cast<uint64_t>(DataTypeBits(type));
  // Whole-byte types multiply bytes, not bits: n * 128 bits of COMPLEX128 would wrap around for
  // counts that n * 16 bytes still holds.
  if (bits % 8 == 0) return static_cast<size_t>(static_cast<uint64_t>(n) * (bits / 8));
  return static_cast<size_t>((static_cast<uint64_t>(n) * bits + 7) / 8);
}
bool IsValidDataType(int32_t value) { return value >= 1 && value <= kLastDataType; }

StatusOr<DataType> DataTypeFromName(const std::string& name) {
  for (const TypeInfo& t : kTypes) {
    if (name == t.name || name == t.short_name) return t.type;
  }
  return NotFound("unknown data type name '" + name + "'");
}

bool IsFloatingPoint(DataType t) {
  return t == DataType::kFloat || t == DataType::kDouble || t == DataType::kFloat16 ||
         t == DataType::kBFloat16;
}
bool IsSignedInteger(DataType t) {
  return t == DataType::kInt8 || t == DataType::kInt16 || t == DataType::kInt32 ||
         t == DataType::kInt64;
}
bool IsInteger(DataType t) {
  return IsSignedInteger(t) || t == DataType::kUint8 || t == DataType::kUint16 ||
         t == DataType::kUint32 || t == DataType::kUint64;
}
bool IsComplex(DataType t) { return t == DataType::kComplex64 || t == DataType::kComplex128; }
bool IsFloat8(DataType t) {
  return t == DataType::kFloat8E4M3FN || t == DataType::kFloat8E4M3FNUZ ||
         t == DataType::kFloat8E5M2 || t == DataType::kFloat8E5M2FNUZ || t == DataType::kFloat8E8M0;
}
bool IsLowPrecisionFloat(DataType t) { return IsFloat8(t) || t == DataType::kFloat4E2M1; }
bool IsSubByteInteger(DataType t) {
  return t == DataType::kInt4 || t == DataType::kUint4 || t == DataType::kInt2 ||
         t == DataType::kUint2;
}

uint8_t GetPackedCode(DataType type, const void* packed, int64_t i) {
  const int bits = DataTypeBits(type);
  const int64_t per_byte = 8 / bits;
  const uint8_t byte = static_cast<const uint8_t*>(packed)[i / per_byte];
  const int shift = static_cast<int>(i % per_byte) * bits;
  return static_cast<uint8_t>((byte >> shift) & ((1u << bits) - 1));
}

void SetPackedCode(DataType type, void* packed, int64_t i, uint8_t code) {
  const int bits = DataTypeBits(type);
  const int64_t per_byte = 8 / bits;
  uint8_t& byte = static_cast<uint8_t*>(packed)[i / per_byte];
  const int shift = static_cast<int>(i % per_byte) * bits;
  const unsigned mask = ((1u << bits) - 1) << shift;
  byte = static_cast<uint8_t>((byte & ~mask) | ((static_cast<unsigned>(code) << shift) & mask));
}

void ClearPackedPadding(DataType type, void* packed, int64_t n) {
  const int bits = DataTypeBits(type);
  const int64_t per_byte = 8 / bits;
  const int used = static_cast<int>(n % per_byte);
  if (used == 0) return;
  uint8_t& last = static_cast<uint8_t*>(packed)[n / per_byte];
  last = static_cast<uint8_t>(last & ((1u << (used * bits)) - 1));
}

int32_t SubByteIntMin(DataType type) {
  switch (type) {
    case DataType::kInt4: return -8;
    case DataType::kInt2: return -2;
    default: return 0;
  }
}
int32_t SubByteIntMax(DataType type) {
  switch (type) {
    case DataType::kInt4: return 7;
    case DataType::kUint4: return 15;
    case DataType::kInt2: return 1;
    case DataType::kUint2: return 3;
    default: return 0;
  }
}

int32_t SubByteIntFromCode(DataType type, uint8_t code) {
  const int bits = DataTypeBits(type);
  const int32_t value = code & ((1 << bits) - 1);
  const bool is_signed = type == DataType::kInt4 || type == DataType::kInt2;
  // Two's complement: the top bit of the code weighs -2^(bits-1).
  if (is_signed && (value & (1 << (bits - 1)))) return value - (1 << bits);
  return value;
}

StatusOr<uint8_t> SubByteIntToCode(DataType type, int64_t value) {
  const int32_t lo = SubByteIntMin(type), hi = SubByteIntMax(type);
  if (!IsSubByteInteger(type) || value < lo || value > hi) {
    return InvalidArgument(std::to_string(value) + " is out of range for " + DataTypeName(type) +
                           " [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return static_cast<uint8_t>(value & ((1 << DataTypeBits(type)) - 1));
}

float LowPrecisionFloatToFloat(DataType type, uint8_t code) {
  switch (type) {
    case DataType::kFloat8E4M3FN: return Float8E4M3FN{code}.ToFloat();
    case DataType::kFloat8E4M3FNUZ: return Float8E4M3FNUZ{code}.ToFloat();
    case DataType::kFloat8E5M2: return Float8E5M2{code}.ToFloat();
    case DataType::kFloat8E5M2FNUZ: return Float8E5M2FNUZ{code}.ToFloat();
    case DataType::kFloat8E8M0: return Float8E8M0{code}.ToFloat();
    case DataType::kFloat4E2M1: return Float4E2M1{code}.ToFloat();
    default: return kFloatNaN;
  }
}

}  // namespace onnxgate
