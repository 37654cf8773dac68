// Tests of Cast's text conversions: numpy-style shortest formatting and ONNX's literals.
#include "runtime/ep/ref/kernels/tensor/cast_string.h"

#include <cmath>
#include <limits>
#include <random>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"

namespace onnxgate::ref {
namespace {

std::string F(float v) { return FloatToText(v, DataType::kFloat); }
std::string D(double v) { return FloatToText(v, DataType::kDouble); }

TEST(CastStringTest, FloatsUseTheShortestRoundTripDigits) {
  EXPECT_EQ(F(0.1f), "0.1");
  EXPECT_EQ(F(0.47892547f), "0.47892547");
  EXPECT_EQ(F(1.0f), "1.0");
  EXPECT_EQ(F(100.0f), "100.0");
  EXPECT_EQ(F(-2.5f), "-2.5");
  EXPECT_EQ(F(123456789.0f), "123456790.0");
  EXPECT_EQ(F(0.0f), "0.0");
  EXPECT_EQ(F(-0.0f), "-0.0");
  EXPECT_EQ(D(0.1), "0.1");
  EXPECT_EQ(D(1.0 / 3.0), "0.3333333333333333");
}

TEST(CastStringTest, ScientificOutsideTheNumpyRange) {
  EXPECT_EQ(F(1e-7f), "1e-07");
  EXPECT_EQ(F(1.5e20f), "1.5e+20");
  EXPECT_EQ(D(1e16), "1e+16");
  EXPECT_EQ(D(9.999e15), "9999000000000000.0");
  EXPECT_EQ(D(1e-4), "0.0001");
  EXPECT_EQ(D(9.999e-5), "9.999e-05");
  EXPECT_EQ(D(1e300), "1e+300");
  EXPECT_EQ(D(5e-324), "5e-324");
}

TEST(CastStringTest, SpecialValues) {
  EXPECT_EQ(F(std::numeric_limits<float>::quiet_NaN()), "NaN");
  EXPECT_EQ(F(std::numeric_limits<float>::infinity()), "inf");
  EXPECT_EQ(D(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(CastStringTest, HalfTypesUseTheirOwnPrecision) {
  EXPECT_EQ(FloatToText(Float16::FromFloat(0.1f).ToFloat(), DataType::kFloat16), "0.1");
  EXPECT_EQ(FloatToText(Float16::FromFloat(65504.0f).ToFloat(), DataType::kFloat16), "65500.0");
  EXPECT_EQ(FloatToText(BFloat16::FromFloat(3.14159f).ToFloat(), DataType::kBFloat16), "3.14");
}

TEST(CastStringTest, FloatTextRoundTrips) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 20000; ++i) {
    uint32_t b = bits(rng);
    float f;
    std::memcpy(&f, &b, sizeof f);
    if (std::isnan(f)) continue;
    std::string text = F(f);
    auto back = ParseFloatText(text, DataType::kFloat);
    ASSERT_TRUE(back.ok()) << text;
    ASSERT_EQ(static_cast<float>(*back), f) << text;
  }
}

TEST(CastStringTest, ParsesOnnxLiteralsInAnyCase) {
  for (const char* nan : {"NaN", "nan", "NAN"}) {
    auto v = ParseFloatText(nan, DataType::kFloat);
    ASSERT_TRUE(v.ok());
    EXPECT_TRUE(std::isnan(*v));
  }
  for (const char* inf : {"INF", "+INF", "inf", "Infinity"}) {
    auto v = ParseFloatText(inf, DataType::kDouble);
    ASSERT_TRUE(v.ok()) << inf;
    EXPECT_EQ(*v, std::numeric_limits<double>::infinity());
  }
  auto minus = ParseFloatText("-INF", DataType::kFloat);
  ASSERT_TRUE(minus.ok());
  EXPECT_EQ(*minus, -std::numeric_limits<double>::infinity());
}

TEST(CastStringTest, ParsesPlainAndScientificText) {
  EXPECT_EQ(*ParseFloatText("3.14", DataType::kDouble), 3.14);
  EXPECT_EQ(*ParseFloatText(" 1e-5 ", DataType::kDouble), 1e-5);
  EXPECT_EQ(*ParseFloatText("1E8", DataType::kFloat), 1e8);
  EXPECT_EQ(*ParseFloatText("+2.5", DataType::kFloat), 2.5);
  EXPECT_EQ(*ParseFloatText("1e400", DataType::kDouble), std::numeric_limits<double>::infinity());
  // Parsed to float directly: 0.1 is the float nearest to 0.1, not a double rounded twice.
  EXPECT_EQ(*ParseFloatText("0.1", DataType::kFloat), static_cast<double>(0.1f));
  EXPECT_ERROR_CODE(ParseFloatText("Hello", DataType::kFloat), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseFloatText("", DataType::kFloat), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseFloatText("1.5x", DataType::kFloat), kInvalidArgument);
  EXPECT_ERROR_CODE(ParseFloatText("--1", DataType::kFloat), kInvalidArgument);
}

TEST(CastStringTest, ParsesIntegersAndBools) {
  EXPECT_EQ(*ParseIntegerText<int32_t>("1000"), 1000);
  EXPECT_EQ(*ParseIntegerText<int64_t>("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(*ParseIntegerText<int32_t>("100.5"), 100);
  EXPECT_EQ(*ParseIntegerText<int32_t>("-2.7"), -2);
  EXPECT_EQ(*ParseIntegerText<int16_t>("1e3"), 1000);
  EXPECT_EQ(*ParseIntegerText<int8_t>("300"), 127);
  EXPECT_EQ(*ParseIntegerText<uint8_t>("-5"), 0);
  EXPECT_EQ(*ParseIntegerText<uint64_t>("18446744073709551615"), UINT64_MAX);
  EXPECT_ERROR_CODE(ParseIntegerText<int32_t>("seven"), kInvalidArgument);
  EXPECT_TRUE(*ParseBoolText("True"));
  EXPECT_FALSE(*ParseBoolText("false"));
  EXPECT_FALSE(*ParseBoolText("0"));
  EXPECT_TRUE(*ParseBoolText("0.5"));
  EXPECT_ERROR_CODE(ParseBoolText("yes"), kInvalidArgument);
}

TEST(CastStringTest, RoundToOddAvoidsDoubleRounding) {
  // 1 + 2^-11 + 2^-40 lies just above the float16 tie between 1 and 1 + 2^-10. Rounding to
  // float first would land on the tie and then round to even (1.0).
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(Float16::FromFloat(static_cast<float>(d)).ToFloat(), 1.0f);
  EXPECT_EQ(Float16::FromFloat(RoundToOddFloat(d)).ToFloat(), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(RoundToOddFloat(0.5), 0.5f);
  // Finite values beyond float's range truncate to +-FLT_MAX; a later rounding still overflows.
  EXPECT_EQ(RoundToOddFloat(-1e300), -std::numeric_limits<float>::max());
  EXPECT_TRUE(std::isinf(Float16::FromFloat(RoundToOddFloat(1e300)).ToFloat()));
  EXPECT_TRUE(std::isinf(RoundToOddFloat(std::numeric_limits<double>::infinity())));
}

}  // namespace
}  // namespace onnxgate::ref
