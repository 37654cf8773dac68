// Tests for the element types added with ONNX 1.14-1.23: the 8-bit and 4-bit float codecs (every
// code, the Cast saturate tables, rounding), FLOAT8E8M0's rounding modes, sub-byte sizes and codes.
#include "runtime/base/data_type.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace onnxgate {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Decodes every one of the 256 codes and re-encodes the value (without saturation, so that E5M2's
// infinities stay infinities): the same code comes back, and NaN codes give a NaN code.
template <typename F8>
void ExpectEveryCodeRoundTrips(const char* name) {
  SCOPED_TRACE(name);
  int nan_codes = 0;
  for (int code = 0; code < 256; ++code) {
    F8 x{static_cast<uint8_t>(code)};
    float v = x.ToFloat();
    F8 back = F8::FromFloat(v, /*saturate=*/false);
    if (std::isnan(v)) {
      ++nan_codes;
      EXPECT_TRUE(std::isnan(back.ToFloat())) << code;
      continue;
    }
    EXPECT_EQ(back.bits, code) << "value " << v;
    if (!std::isinf(v)) {
      EXPECT_EQ(F8::FromFloat(v, /*saturate=*/true).bits, code) << "value " << v;
    }
  }
  EXPECT_GT(nan_codes, 0);
}

TEST(Float8Test, EveryCodeDecodesAndReencodesToItself) {
  ExpectEveryCodeRoundTrips<Float8E4M3FN>("E4M3FN");
  ExpectEveryCodeRoundTrips<Float8E4M3FNUZ>("E4M3FNUZ");
  ExpectEveryCodeRoundTrips<Float8E5M2>("E5M2");
  ExpectEveryCodeRoundTrips<Float8E5M2FNUZ>("E5M2FNUZ");
  ExpectEveryCodeRoundTrips<Float8E8M0>("E8M0");
}

TEST(Float8Test, DecodedValuesIncreaseWithTheCode) {
  // Positive finite codes are ordered like their values: what the encoder's bisection relies on.
  auto check = [](auto tag, int max_code) {
    using F8 = decltype(tag);
    for (int c = 1; c <= max_code; ++c) {
      EXPECT_LT(F8{static_cast<uint8_t>(c - 1)}.ToFloat(), F8{static_cast<uint8_t>(c)}.ToFloat());
    }
  };
  check(Float8E4M3FN{}, 0x7E);
  check(Float8E4M3FNUZ{}, 0x7F);
  check(Float8E5M2{}, 0x7B);
  check(Float8E5M2FNUZ{}, 0x7F);
}

TEST(Float8Test, KnownValuesOfE4M3FN) {
  EXPECT_EQ(Float8E4M3FN{0x7E}.ToFloat(), 448.f);
  EXPECT_TRUE(std::isnan(Float8E4M3FN{0x7F}.ToFloat()));
  EXPECT_TRUE(std::isnan(Float8E4M3FN{0xFF}.ToFloat()));
  EXPECT_EQ(Float8E4M3FN{0x38}.ToFloat(), 1.f);
  EXPECT_EQ(Float8E4M3FN{0x01}.ToFloat(), std::ldexp(1.f, -9));  // smallest subnormal
  EXPECT_EQ(Float8E4M3FN{0x78}.ToFloat(), 256.f);                // exponent 1111 is not special
  EXPECT_TRUE(std::signbit(Float8E4M3FN{0x80}.ToFloat()));
  EXPECT_EQ(Float8E4M3FN::FromFloat(448.f).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FN::FromFloat(-448.f).bits, 0xFE);
  EXPECT_EQ(Float8E4M3FN::FromFloat(-0.f).bits, 0x80);
  // Saturating (the default): beyond the range and infinities go to +-448.
  EXPECT_EQ(Float8E4M3FN::FromFloat(1000.f).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FN::FromFloat(kInf).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FN::FromFloat(-kInf).bits, 0xFE);
  // Not saturating: NaN, keeping the sign. 464 is halfway between 448 and the next step (480):
  // ties go to the even code 0x7E.
  EXPECT_EQ(Float8E4M3FN::FromFloat(1000.f, false).bits, 0x7F);
  EXPECT_EQ(Float8E4M3FN::FromFloat(-kInf, false).bits, 0xFF);
  EXPECT_EQ(Float8E4M3FN::FromFloat(464.f, false).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FN::FromFloat(465.f, false).bits, 0x7F);
  EXPECT_EQ(Float8E4M3FN::FromFloat(kNaN).bits & 0x7F, 0x7F);
  // Round to nearest even: 1.0625 lies halfway between 1 (0x38) and 1.125 (0x39).
  EXPECT_EQ(Float8E4M3FN::FromFloat(1.0625f).bits, 0x38);
  EXPECT_EQ(Float8E4M3FN::FromFloat(1.1875f).bits, 0x3A);  // halfway 1.125/1.25 -> even 1.25
  EXPECT_EQ(Float8E4M3FN::FromFloat(1.07f).bits, 0x39);
  // Below half the smallest subnormal: zero with the sign.
  EXPECT_EQ(Float8E4M3FN::FromFloat(-1e-6f).bits, 0x80);
}

TEST(Float8Test, KnownValuesOfE4M3FNUZ) {
  EXPECT_TRUE(std::isnan(Float8E4M3FNUZ{0x80}.ToFloat()));
  EXPECT_EQ(Float8E4M3FNUZ{0x7F}.ToFloat(), 240.f);
  EXPECT_EQ(Float8E4M3FNUZ{0xFF}.ToFloat(), -240.f);
  EXPECT_EQ(Float8E4M3FNUZ{0x40}.ToFloat(), 1.f);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(kNaN).bits, 0x80);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-kNaN).bits, 0x80);
  // No negative zero: -0 and negative values that round to zero give 0x00.
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-0.f).bits, 0x00);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-1e-9f).bits, 0x00);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(kInf).bits, 0x7F);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-1e6f).bits, 0xFF);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(kInf, false).bits, 0x80);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-1e6f, false).bits, 0x80);
}

TEST(Float8Test, KnownValuesOfE5M2) {
  EXPECT_EQ(Float8E5M2{0x7C}.ToFloat(), kInf);
  EXPECT_EQ(Float8E5M2{0xFC}.ToFloat(), -kInf);
  EXPECT_TRUE(std::isnan(Float8E5M2{0x7D}.ToFloat()));
  EXPECT_TRUE(std::isnan(Float8E5M2{0xFF}.ToFloat()));
  EXPECT_EQ(Float8E5M2{0x7B}.ToFloat(), 57344.f);
  EXPECT_EQ(Float8E5M2{0x3C}.ToFloat(), 1.f);
  EXPECT_EQ(Float8E5M2::FromFloat(kInf).bits, 0x7B);
  EXPECT_EQ(Float8E5M2::FromFloat(kInf, false).bits, 0x7C);
  EXPECT_EQ(Float8E5M2::FromFloat(-kInf, false).bits, 0xFC);
  EXPECT_EQ(Float8E5M2::FromFloat(1e6f, false).bits, 0x7C);
  EXPECT_EQ(Float8E5M2::FromFloat(-1e6f).bits, 0xFB);
  // 61440 is halfway between 57344 (0x7B, odd) and the next step: the tie overflows.
  EXPECT_EQ(Float8E5M2::FromFloat(61440.f, false).bits, 0x7C);
  EXPECT_EQ(Float8E5M2::FromFloat(61439.f, false).bits, 0x7B);
  EXPECT_EQ(Float8E5M2::FromFloat(-0.f).bits, 0x80);
}

TEST(Float8Test, KnownValuesOfE5M2FNUZ) {
  EXPECT_TRUE(std::isnan(Float8E5M2FNUZ{0x80}.ToFloat()));
  EXPECT_EQ(Float8E5M2FNUZ{0x7F}.ToFloat(), 57344.f);
  EXPECT_EQ(Float8E5M2FNUZ{0x40}.ToFloat(), 1.f);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(-0.f).bits, 0x00);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(kInf).bits, 0x7F);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(-kInf, false).bits, 0x80);
}

TEST(Float8Test, E8M0RoundingModesAndSaturation) {
  EXPECT_EQ(Float8E8M0{127}.ToFloat(), 1.f);
  EXPECT_EQ(Float8E8M0{0}.ToFloat(), std::ldexp(1.f, -127));
  EXPECT_EQ(Float8E8M0{254}.ToFloat(), std::ldexp(1.f, 127));
  EXPECT_TRUE(std::isnan(Float8E8M0{255}.ToFloat()));
  // Powers of two are exact in every mode.
  for (auto mode : {E8M0Rounding::kUp, E8M0Rounding::kDown, E8M0Rounding::kNearest}) {
    EXPECT_EQ(Float8E8M0::FromFloat(0.25f, true, mode).bits, 125);
    EXPECT_EQ(Float8E8M0::FromFloat(8.f, false, mode).bits, 130);
  }
  // 1.1 and 1.6 lie between 1 and 2.
  EXPECT_EQ(Float8E8M0::FromFloat(1.1f).bits, 128);  // up is the default
  EXPECT_EQ(Float8E8M0::FromFloat(1.1f, true, E8M0Rounding::kDown).bits, 127);
  EXPECT_EQ(Float8E8M0::FromFloat(1.1f, true, E8M0Rounding::kNearest).bits, 127);
  EXPECT_EQ(Float8E8M0::FromFloat(1.5f, true, E8M0Rounding::kNearest).bits, 128);  // tie: up
  EXPECT_EQ(Float8E8M0::FromFloat(1.6f, true, E8M0Rounding::kNearest).bits, 128);
  EXPECT_EQ(Float8E8M0::FromFloat(0.124f).bits, 124);  // ONNX's test_cast_e8m0 case: 2^-3
  // The Cast table: saturate + up / not saturating.
  EXPECT_EQ(Float8E8M0::FromFloat(0.f).bits, 0);
  EXPECT_EQ(Float8E8M0::FromFloat(0.f, false, E8M0Rounding::kNearest).bits, 255);
  EXPECT_EQ(Float8E8M0::FromFloat(kNaN).bits, 255);
  EXPECT_EQ(Float8E8M0::FromFloat(kInf).bits, 254);
  EXPECT_EQ(Float8E8M0::FromFloat(kInf, false, E8M0Rounding::kNearest).bits, 255);
  EXPECT_EQ(Float8E8M0::FromFloat(3e38f).bits, 254);
  EXPECT_EQ(Float8E8M0::FromFloat(3e38f, false, E8M0Rounding::kNearest).bits, 255);
  EXPECT_EQ(Float8E8M0::FromFloat(1e-45f, true, E8M0Rounding::kDown).bits, 0);
  EXPECT_EQ(Float8E8M0::FromFloat(1e-45f, false, E8M0Rounding::kDown).bits, 255);
  EXPECT_EQ(Float8E8M0::FromFloat(1e-45f, false, E8M0Rounding::kUp).bits, 0);
}

TEST(Float4Test, EveryCodeAndRounding) {
  const float kValues[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (uint8_t code = 0; code < 16; ++code) {
    float v = Float4E2M1{code}.ToFloat();
    float expected = (code & 8) ? -kValues[code & 7] : kValues[code & 7];
    EXPECT_EQ(v, expected) << int{code};
    EXPECT_EQ(std::signbit(v), (code & 8) != 0) << int{code};
    EXPECT_EQ(Float4E2M1::FromFloat(v).bits, code) << int{code};
  }
  EXPECT_EQ(Float4E2M1::FromFloat(7.f).bits, 0x7);  // saturates
  EXPECT_EQ(Float4E2M1::FromFloat(1e6f).bits, 0x7);
  EXPECT_EQ(Float4E2M1::FromFloat(-kInf).bits, 0xF);
  EXPECT_EQ(Float4E2M1::FromFloat(kInf).bits, 0x7);
  EXPECT_EQ(Float4E2M1::FromFloat(kNaN).bits, 0x0);   // no NaN code: zero, as ONNX's reference
  EXPECT_EQ(Float4E2M1::FromFloat(0.25f).bits, 0x0);  // tie between 0 and 0.5: even
  EXPECT_EQ(Float4E2M1::FromFloat(0.26f).bits, 0x1);
  EXPECT_EQ(Float4E2M1::FromFloat(2.5f).bits, 0x4);   // tie between 2 and 3: even (2)
  EXPECT_EQ(Float4E2M1::FromFloat(5.f).bits, 0x6);    // tie between 4 and 6: even (4)
  EXPECT_EQ(Float4E2M1::FromFloat(-3.5f).bits, 0xE);  // tie between -3 and -4: even (-4)
  EXPECT_EQ(Float4E2M1::FromFloat(-0.f).bits, 0x8);
  EXPECT_EQ(Float4E2M1::FromFloat(1e-7f).bits, 0x0);
}

TEST(DataTypeTest, BitsSizesAndPredicates) {
  EXPECT_EQ(DataTypeBits(DataType::kInt4), 4);
  EXPECT_EQ(DataTypeBits(DataType::kUint4), 4);
  EXPECT_EQ(DataTypeBits(DataType::kFloat4E2M1), 4);
  EXPECT_EQ(DataTypeBits(DataType::kInt2), 2);
  EXPECT_EQ(DataTypeBits(DataType::kUint2), 2);
  EXPECT_EQ(DataTypeBits(DataType::kFloat8E5M2), 8);
  EXPECT_EQ(DataTypeBits(DataType::kFloat), 32);
  EXPECT_EQ(DataTypeBits(DataType::kString), 0);
  EXPECT_TRUE(IsPackedSubByte(DataType::kInt4));
  EXPECT_TRUE(IsPackedSubByte(DataType::kUint2));
  EXPECT_TRUE(IsPackedSubByte(DataType::kFloat4E2M1));
  EXPECT_FALSE(IsPackedSubByte(DataType::kFloat8E8M0));
  EXPECT_FALSE(IsPackedSubByte(DataType::kString));
  EXPECT_EQ(DataTypeStorageBytes(DataType::kInt4, 5), 3u);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kInt4, 6), 3u);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kUint2, 5), 2u);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kUint2, 4), 1u);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kUint2, 0), 0u);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kFloat8E4M3FN, 5), 5u);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kDouble, 3), 24u);
  // 2^58 COMPLEX128 elements are 2^62 bytes; counted in bits (2^65) they would wrap to 0.
  EXPECT_EQ(DataTypeStorageBytes(DataType::kComplex128, int64_t{1} << 58), uint64_t{1} << 62);
  EXPECT_EQ(DataTypeStorageBytes(DataType::kInt4, int64_t{1} << 58), uint64_t{1} << 57);
  for (DataType t : {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
                     DataType::kFloat8E5M2FNUZ, DataType::kFloat8E8M0, DataType::kFloat4E2M1,
                     DataType::kInt4, DataType::kUint4, DataType::kInt2, DataType::kUint2}) {
    EXPECT_FALSE(IsFloatingPoint(t)) << DataTypeName(t);
    EXPECT_FALSE(IsInteger(t)) << DataTypeName(t);
    EXPECT_EQ(IsLowPrecisionFloat(t), !IsSubByteInteger(t)) << DataTypeName(t);
    EXPECT_EQ(*DataTypeFromName(DataTypeName(t)), t);
    // Generic kernels must not receive them: a clear Unimplemented, never a crash.
    Status st = VisitAllTypes(t, [](auto) { return OkStatus(); });
    EXPECT_EQ(st.code(), StatusCode::kUnimplemented) << DataTypeName(t);
    EXPECT_NE(st.message().find(DataTypeName(t)), std::string::npos) << st.message();
  }
  EXPECT_TRUE(VisitFloat8Types(DataType::kFloat8E8M0, [](auto tag) {
                return DataTypeOf<decltype(tag)>::value == DataType::kFloat8E8M0
                           ? OkStatus()
                           : Internal("wrong type");
              }).ok());
  EXPECT_EQ(VisitFloat8Types(DataType::kInt4, [](auto) { return OkStatus(); }).code(),
            StatusCode::kUnimplemented);
  EXPECT_FALSE(IsValidDataType(27));  // FLOAT6E2M3: not supported yet
}

TEST(DataTypeTest, SubByteIntegerCodes) {
  EXPECT_EQ(SubByteIntFromCode(DataType::kInt4, 0x8), -8);
  EXPECT_EQ(SubByteIntFromCode(DataType::kInt4, 0xF), -1);
  EXPECT_EQ(SubByteIntFromCode(DataType::kInt4, 0x7), 7);
  EXPECT_EQ(SubByteIntFromCode(DataType::kUint4, 0xF), 15);
  EXPECT_EQ(SubByteIntFromCode(DataType::kInt2, 0x2), -2);
  EXPECT_EQ(SubByteIntFromCode(DataType::kInt2, 0x3), -1);
  EXPECT_EQ(SubByteIntFromCode(DataType::kUint2, 0x3), 3);
  EXPECT_EQ(*SubByteIntToCode(DataType::kInt4, -1), 0xF);
  EXPECT_EQ(*SubByteIntToCode(DataType::kInt2, -2), 0x2);
  EXPECT_FALSE(SubByteIntToCode(DataType::kInt4, 8).ok());
  EXPECT_FALSE(SubByteIntToCode(DataType::kUint2, -1).ok());
  Status st = SubByteIntToCode(DataType::kUint4, 16).status();
  EXPECT_EQ(st.message(), "16 is out of range for UINT4 [0, 15]");
}

TEST(DataTypeTest, PackedCodesFollowOnnxLayout) {
  uint8_t bytes[2] = {0, 0};
  SetPackedCode(DataType::kUint4, bytes, 0, 0x1);
  SetPackedCode(DataType::kUint4, bytes, 1, 0x2);
  SetPackedCode(DataType::kUint4, bytes, 2, 0xF);
  EXPECT_EQ(bytes[0], 0x21);  // element 0 low nibble, element 1 high nibble
  EXPECT_EQ(bytes[1], 0x0F);
  EXPECT_EQ(GetPackedCode(DataType::kUint4, bytes, 1), 0x2);
  uint8_t two[2] = {0, 0};
  for (int i = 0; i < 5; ++i) SetPackedCode(DataType::kUint2, two, i, static_cast<uint8_t>(i % 4));
  EXPECT_EQ(two[0], 0 | (1 << 2) | (2 << 4) | (3 << 6));
  EXPECT_EQ(two[1], 0);
  SetPackedCode(DataType::kUint2, two, 4, 3);
  EXPECT_EQ(GetPackedCode(DataType::kUint2, two, 4), 3);
  two[1] = 0xFF;
  ClearPackedPadding(DataType::kUint2, two, 5);
  EXPECT_EQ(two[1], 0x03);
}

}  // namespace
}  // namespace onnxgate
