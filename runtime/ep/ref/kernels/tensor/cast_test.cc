// Tests of Cast and CastLike: numeric conversions, string conversions and the version splits.
#include "runtime/ep/ref/kernels/tensor/cast.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class CastTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  std::string Node(DataType to) {
    return "Y = Cast <to = " + std::to_string(static_cast<int>(to)) + "> (X)";
  }
};

TEST_F(CastTest, FloatToIntegerTruncatesAndSaturates) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, Node(DataType::kInt32), 13,
                               {TensorValue<float>({6}, {1.9f, -1.9f, kNaN, 3e9f, -kInf, 0.5f})}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, -1, 0, INT32_MAX, INT32_MIN, 0));
  ASSERT_OK_AND_ASSIGN(auto u8, RunNode(registry_, Node(DataType::kUint8), 13,
                                        {TensorValue<double>({3}, {-1, 255.9, 256})}));
  EXPECT_THAT(ValuesOf<uint8_t>(u8[0]), ElementsAre(0, 255, 255));
}

TEST_F(CastTest, IntegerNarrowingWraps) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, Node(DataType::kUint8), 13,
                                         {TensorValue<int32_t>({3}, {300, -1, 255})}));
  EXPECT_THAT(ValuesOf<uint8_t>(out[0]), ElementsAre(44, 255, 255));
  ASSERT_OK_AND_ASSIGN(auto big, RunNode(registry_, Node(DataType::kFloat), 13,
                                         {TensorValue<int64_t>({1}, {16777217})}));
  EXPECT_THAT(ValuesOf<float>(big[0]), ElementsAre(16777216.0f));
}

TEST_F(CastTest, BoolConversions) {
  ASSERT_OK_AND_ASSIGN(auto to_bool, RunNode(registry_, Node(DataType::kBool), 13,
                                             {TensorValue<float>({4}, {0, -0.0f, 0.1f, kNaN})}));
  EXPECT_THAT(ValuesOf<bool>(to_bool[0]), ElementsAre(false, false, true, true));
  ASSERT_OK_AND_ASSIGN(auto from_bool, RunNode(registry_, Node(DataType::kFloat16), 13,
                                               {TensorValue<bool>({2}, {true, false})}));
  EXPECT_THAT(HalfValuesOf<Float16>(from_bool[0]), ElementsAre(1, 0));
}

TEST_F(CastTest, HalfTypesRoundToNearestEven) {
  ASSERT_OK_AND_ASSIGN(auto bf,
                       RunNode(registry_, Node(DataType::kBFloat16), 13,
                               {TensorValue<float>({2}, {1.0f + 1.0f / 256, 1.0f + 3.0f / 256})}));
  // Ties go to the even mantissa: 1 + 2^-8 -> 1, 1 + 3 * 2^-8 -> 1 + 2^-6.
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(1.0f, 1.0f + 1.0f / 64));
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  ASSERT_OK_AND_ASSIGN(
      auto h, RunNode(registry_, Node(DataType::kFloat16), 13, {TensorValue<double>({1}, {d})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(1.0f + std::ldexp(1.0f, -10)));
  ASSERT_OK_AND_ASSIGN(auto back, RunNode(registry_, Node(DataType::kDouble), 13,
                                          {HalfValue({2}, {0.5f, 65504.0f})}));
  EXPECT_THAT(ValuesOf<double>(back[0]), ElementsAre(0.5, 65504.0));
}

TEST_F(CastTest, NumbersToStringsAndBack) {
  ASSERT_OK_AND_ASSIGN(auto text, RunNode(registry_, Node(DataType::kString), 9,
                                          {TensorValue<float>({5}, {0.1f, 1e-7f, kInf, kNaN, 3})}));
  EXPECT_THAT(ValuesOf<std::string>(text[0]), ElementsAre("0.1", "1e-07", "inf", "NaN", "3.0"));
  ASSERT_OK_AND_ASSIGN(auto ints, RunNode(registry_, Node(DataType::kString), 13,
                                          {TensorValue<int8_t>({2}, {-128, 7})}));
  EXPECT_THAT(ValuesOf<std::string>(ints[0]), ElementsAre("-128", "7"));
  ASSERT_OK_AND_ASSIGN(
      auto num, RunNode(registry_, Node(DataType::kFloat), 9,
                        {TensorValue<std::string>({4}, {"0.47892547", "NaN", "+INF", "-INF"})}));
  std::vector<float> v = ValuesOf<float>(num[0]);
  EXPECT_EQ(v[0], 0.47892547f);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], kInf);
  EXPECT_EQ(v[3], -kInf);
  ASSERT_OK_AND_ASSIGN(auto i, RunNode(registry_, Node(DataType::kInt64), 13,
                                       {TensorValue<std::string>({2}, {"100.5", "-42"})}));
  EXPECT_THAT(ValuesOf<int64_t>(i[0]), ElementsAre(100, -42));
}

TEST_F(CastTest, UnparsableStringIsAnError) {
  auto out = RunNode(registry_, Node(DataType::kFloat), 13,
                     {TensorValue<std::string>({2}, {"1", "Hello World!"})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), ::testing::HasSubstr("element 1"));
}

TEST_F(CastTest, VersionSplits) {
  Value x = TensorValue<float>({1}, {2.5f});
  // Cast-1 names the type.
  ASSERT_OK_AND_ASSIGN(auto v1, RunNode(registry_, "Y = Cast <to = \"DOUBLE\"> (X)", 1, {x}));
  EXPECT_THAT(ValuesOf<double>(v1[0]), ElementsAre(2.5));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Cast <to = \"NOPE\"> (X)", 1, {x}), kInvalidArgument);
  // Strings from Cast-9, bfloat16 from Cast-13.
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kString), 8, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kBFloat16), 12, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kFloat), 12, {BFloat16Value({1}, {1})}),
                    kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kComplex64), 13, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Cast <to = 99> (X)", 13, {x}), kInvalidArgument);
}

TEST_F(CastTest, CastLikeTakesTheTypeOfItsSecondInput) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = CastLike(X, T)", 15,
                        {TensorValue<double>({2}, {1.5, -1.5}), TensorValue<int16_t>({}, {0})}));
  EXPECT_THAT(ValuesOf<int16_t>(out[0]), ElementsAre(1, -1));
}

// Casts to and from the coded types (FLOAT8, FLOAT4E2M1, INT4/UINT4/INT2/UINT2) from Cast-19.

// The codes of a FLOAT8 tensor value, and a FLOAT8 tensor value of codes.
std::vector<uint8_t> CodesOf(const Value& v) {
  const Tensor& t = v.tensor();
  std::vector<uint8_t> out;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    out.push_back(IsPackedSubByte(t.dtype()) ? t.PackedCode(i)
                                             : static_cast<const uint8_t*>(t.raw_data())[i]);
  }
  return out;
}
Value CodedValue(DataType type, const std::vector<uint8_t>& codes) {
  Tensor t(type, Shape({static_cast<int64_t>(codes.size())}));
  for (size_t i = 0; i < codes.size(); ++i) {
    if (IsPackedSubByte(type)) {
      t.SetPackedCode(static_cast<int64_t>(i), codes[i]);
    } else {
      static_cast<uint8_t*>(t.mutable_raw_data())[i] = codes[i];
    }
  }
  return Value::FromTensor(t);
}
std::vector<int32_t> SubByteIntsOf(const Value& v) {
  std::vector<int32_t> out;
  for (int64_t i = 0; i < v.tensor().NumElements(); ++i) out.push_back(v.tensor().SubByteInt(i));
  return out;
}

TEST_F(CastTest, Float8FollowsTheSaturationTables) {
  Value x = TensorValue<float>({6}, {0.5f, 1e6f, -1e6f, kInf, kNaN, -0.0f});
  ASSERT_OK_AND_ASSIGN(auto sat, RunNode(registry_, Node(DataType::kFloat8E4M3FN), 19, {x}));
  EXPECT_EQ(sat[0].tensor().dtype(), DataType::kFloat8E4M3FN);
  // 0.5, 448, -448, 448, NaN, -0.
  EXPECT_THAT(CodesOf(sat[0]), ElementsAre(0x30, 0x7E, 0xFE, 0x7E, 0x7F, 0x80));
  ASSERT_OK_AND_ASSIGN(auto nosat,
                       RunNode(registry_, "Y = Cast <to = 17, saturate = 0> (X)", 19, {x}));
  EXPECT_THAT(CodesOf(nosat[0]), ElementsAre(0x30, 0x7F, 0xFF, 0x7F, 0x7F, 0x80));
  ASSERT_OK_AND_ASSIGN(auto e5m2,
                       RunNode(registry_, "Y = Cast <to = 19, saturate = 0> (X)", 19, {x}));
  // E5M2 keeps infinities when not saturating: 0.5, inf, -inf, inf, NaN, -0.
  EXPECT_THAT(CodesOf(e5m2[0]), ElementsAre(0x38, 0x7C, 0xFC, 0x7C, 0x7F, 0x80));
  ASSERT_OK_AND_ASSIGN(auto fnuz, RunNode(registry_, Node(DataType::kFloat8E4M3FNUZ), 19, {x}));
  // FNUZ: max 240, NaN 0x80, no negative zero.
  EXPECT_THAT(CodesOf(fnuz[0]), ElementsAre(0x38, 0x7F, 0xFF, 0x7F, 0x80, 0x00));
}

TEST_F(CastTest, Float8RoundsOnceFromDoubleAndIntegers) {
  // 1 + 2^-4 + 2^-30 lies just above the tie between 1 and 1.125 of E4M3FN: rounding to float
  // first would make it a tie, which rounds to even (1).
  const double d = 1.0 + std::ldexp(1.0, -4) + std::ldexp(1.0, -30);
  ASSERT_OK_AND_ASSIGN(auto f8, RunNode(registry_, Node(DataType::kFloat8E4M3FN), 19,
                                        {TensorValue<double>({1}, {d})}));
  EXPECT_THAT(CodesOf(f8[0]), ElementsAre(0x39));  // 1.125
  // 2^40 + 1 to E8M0, rounding up: just above 2^40, so 2^41.
  ASSERT_OK_AND_ASSIGN(auto e8, RunNode(registry_, Node(DataType::kFloat8E8M0), 24,
                                        {TensorValue<int64_t>({2}, {(int64_t{1} << 40) + 1, 8})}));
  EXPECT_THAT(CodesOf(e8[0]), ElementsAre(127 + 41, 127 + 3));
  // A double beyond float's range is still finite: rounded down it is 2^127, not NaN.
  ASSERT_OK_AND_ASSIGN(
      auto down, RunNode(registry_, "Y = Cast <to = 24, round_mode = \"down\", saturate = 0> (X)",
                         24, {TensorValue<double>({1}, {1e39})}));
  EXPECT_THAT(CodesOf(down[0]), ElementsAre(254));
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, Node(DataType::kFloat16), 13,
                                       {TensorValue<double>({2}, {1e39, -1e39})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(kInf, -kInf));
}

TEST_F(CastTest, Float8ToOtherTypes) {
  // E4M3FN 0x30 = 0.5, 0x7E = 448, 0xFF = NaN, 0xB8 = -1.
  Value x = CodedValue(DataType::kFloat8E4M3FN, {0x30, 0x7E, 0xFF, 0xB8});
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, Node(DataType::kFloat), 19, {x}));
  std::vector<float> v = ValuesOf<float>(f[0]);
  EXPECT_EQ(v[0], 0.5f);
  EXPECT_EQ(v[1], 448.0f);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], -1.0f);
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, Node(DataType::kFloat16), 19, {x}));
  EXPECT_EQ(HalfValuesOf<Float16>(h[0])[1], 448.0f);
  ASSERT_OK_AND_ASSIGN(auto i, RunNode(registry_, Node(DataType::kInt8), 19, {x}));
  EXPECT_THAT(ValuesOf<int8_t>(i[0]), ElementsAre(0, 127, 0, -1));
  ASSERT_OK_AND_ASSIGN(auto b, RunNode(registry_, Node(DataType::kBool), 19, {x}));
  EXPECT_THAT(ValuesOf<bool>(b[0]), ElementsAre(true, true, true, true));
  ASSERT_OK_AND_ASSIGN(auto s, RunNode(registry_, Node(DataType::kString), 19, {x}));
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("0.5", "448.0", "NaN", "-1.0"));
  // To another FLOAT8 type: 448 is beyond E4M3FNUZ's 240.
  ASSERT_OK_AND_ASSIGN(auto fnuz, RunNode(registry_, Node(DataType::kFloat8E4M3FNUZ), 19, {x}));
  EXPECT_THAT(CodesOf(fnuz[0]), ElementsAre(0x38, 0x7F, 0x80, 0xC0));
  ASSERT_OK_AND_ASSIGN(auto same, RunNode(registry_, Node(DataType::kFloat8E4M3FN), 19, {x}));
  EXPECT_THAT(CodesOf(same[0]), ElementsAre(0x30, 0x7E, 0xFF, 0xB8));
}

TEST_F(CastTest, StringsToAndFromCodedTypes) {
  Value text = TensorValue<std::string>({3}, {"0.5", "1e6", "NaN"});
  ASSERT_OK_AND_ASSIGN(auto f8, RunNode(registry_, Node(DataType::kFloat8E5M2), 19, {text}));
  EXPECT_THAT(CodesOf(f8[0]), ElementsAre(0x38, 0x7B, 0x7F));
  ASSERT_OK_AND_ASSIGN(auto i4, RunNode(registry_, Node(DataType::kInt4), 21,
                                        {TensorValue<std::string>({3}, {"7", "-9", "100.5"})}));
  EXPECT_THAT(SubByteIntsOf(i4[0]), ElementsAre(7, 7, 4));
  EXPECT_ERROR_CODE(
      RunNode(registry_, Node(DataType::kInt4), 21, {TensorValue<std::string>({1}, {"seven"})}),
      kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto back, RunNode(registry_, Node(DataType::kString), 21,
                                          {CodedValue(DataType::kInt4, {0x7, 0x8, 0xF})}));
  EXPECT_THAT(ValuesOf<std::string>(back[0]), ElementsAre("7", "-8", "-1"));
}

TEST_F(CastTest, SubByteIntegersWrap) {
  Value x = TensorValue<float>({8}, {-9, -8, 7, 8, 15.9f, -2.7f, kNaN, kInf});
  ASSERT_OK_AND_ASSIGN(auto i4, RunNode(registry_, Node(DataType::kInt4), 21, {x}));
  EXPECT_EQ(i4[0].tensor().dtype(), DataType::kInt4);
  EXPECT_THAT(SubByteIntsOf(i4[0]), ElementsAre(7, -8, 7, -8, -1, -2, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto u4, RunNode(registry_, Node(DataType::kUint4), 21, {x}));
  EXPECT_THAT(SubByteIntsOf(u4[0]), ElementsAre(7, 8, 7, 8, 15, 14, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto i2, RunNode(registry_, Node(DataType::kInt2), 25, {x}));
  EXPECT_THAT(SubByteIntsOf(i2[0]), ElementsAre(-1, 0, -1, 0, -1, -2, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto u2, RunNode(registry_, Node(DataType::kUint2), 25, {x}));
  EXPECT_THAT(SubByteIntsOf(u2[0]), ElementsAre(3, 0, 3, 0, 3, 2, 0, 0));
  ASSERT_OK_AND_ASSIGN(auto from_int, RunNode(registry_, Node(DataType::kInt4), 21,
                                              {TensorValue<int64_t>({3}, {200, -56, INT64_MIN})}));
  EXPECT_THAT(SubByteIntsOf(from_int[0]), ElementsAre(-8, -8, 0));
  ASSERT_OK_AND_ASSIGN(auto from_bool, RunNode(registry_, Node(DataType::kInt2), 25,
                                               {TensorValue<bool>({2}, {true, false})}));
  EXPECT_THAT(SubByteIntsOf(from_bool[0]), ElementsAre(1, 0));
  // Between sub-byte types: INT4 -8 keeps its low two bits in UINT2.
  ASSERT_OK_AND_ASSIGN(auto narrow, RunNode(registry_, Node(DataType::kUint2), 25,
                                            {CodedValue(DataType::kInt4, {0x8, 0x7, 0xF})}));
  EXPECT_THAT(SubByteIntsOf(narrow[0]), ElementsAre(0, 3, 3));
  // Three 2-bit elements leave the last byte's top bits zero.
  EXPECT_EQ(static_cast<const uint8_t*>(narrow[0].tensor().raw_data())[0], 0x3C);
}

TEST_F(CastTest, SubByteIntegersToWiderTypes) {
  Value x = CodedValue(DataType::kInt4, {0x7, 0x8, 0xF, 0x0, 0x1});
  ASSERT_OK_AND_ASSIGN(auto i8, RunNode(registry_, Node(DataType::kInt8), 21, {x}));
  EXPECT_THAT(ValuesOf<int8_t>(i8[0]), ElementsAre(7, -8, -1, 0, 1));
  ASSERT_OK_AND_ASSIGN(auto u8, RunNode(registry_, Node(DataType::kUint8), 21, {x}));
  EXPECT_THAT(ValuesOf<uint8_t>(u8[0]), ElementsAre(7, 248, 255, 0, 1));
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, Node(DataType::kFloat), 21, {x}));
  EXPECT_THAT(ValuesOf<float>(f[0]), ElementsAre(7, -8, -1, 0, 1));
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, Node(DataType::kBFloat16), 21, {x}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(h[0]), ElementsAre(7, -8, -1, 0, 1));
  ASSERT_OK_AND_ASSIGN(auto f8, RunNode(registry_, Node(DataType::kFloat8E4M3FN), 21, {x}));
  EXPECT_THAT(CodesOf(f8[0]), ElementsAre(0x4E, 0xD0, 0xB8, 0x00, 0x38));
  ASSERT_OK_AND_ASSIGN(auto u2, RunNode(registry_, Node(DataType::kFloat), 25,
                                        {CodedValue(DataType::kUint2, {0, 1, 2, 3})}));
  EXPECT_THAT(ValuesOf<float>(u2[0]), ElementsAre(0, 1, 2, 3));
}

TEST_F(CastTest, Float4E2M1RoundsAndSaturates) {
  Value x = TensorValue<float>({8}, {0.25f, 0.3f, 2.5f, 5.0f, 7.0f, -100.0f, -kInf, -0.0f});
  ASSERT_OK_AND_ASSIGN(auto f4, RunNode(registry_, Node(DataType::kFloat4E2M1), 23, {x}));
  // 0 (tie to even), 0.5, 2 (tie to even), 4 (tie to even), 6, -6, -6, -0.
  EXPECT_THAT(CodesOf(f4[0]), ElementsAre(0x0, 0x1, 0x4, 0x6, 0x7, 0xF, 0xF, 0x8));
  ASSERT_OK_AND_ASSIGN(auto back, RunNode(registry_, Node(DataType::kFloat), 23, {f4[0]}));
  EXPECT_THAT(ValuesOf<float>(back[0]), ElementsAre(0, 0.5f, 2, 4, 6, -6, -6, 0));
}

TEST_F(CastTest, Float8E8M0RoundModes) {
  Value x = TensorValue<float>({5}, {1.0f, 1.4f, 1.5f, 3.0f, 0.0f});
  const char* up = "Y = Cast <to = 24> (X)";
  const char* down = "Y = Cast <to = 24, round_mode = \"down\"> (X)";
  const char* nearest = "Y = Cast <to = 24, round_mode = \"nearest\", saturate = 0> (X)";
  ASSERT_OK_AND_ASSIGN(auto u, RunNode(registry_, up, 24, {x}));
  EXPECT_THAT(CodesOf(u[0]), ElementsAre(127, 128, 128, 129, 0));
  ASSERT_OK_AND_ASSIGN(auto d, RunNode(registry_, down, 24, {x}));
  EXPECT_THAT(CodesOf(d[0]), ElementsAre(127, 127, 127, 128, 0));
  ASSERT_OK_AND_ASSIGN(auto n, RunNode(registry_, nearest, 25, {x}));
  // Ties (1.5 * 2^k) round up; 0 is NaN without saturation.
  EXPECT_THAT(CodesOf(n[0]), ElementsAre(127, 127, 128, 129, 0xFF));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Cast <to = 24, round_mode = \"odd\"> (X)", 24, {x}),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, Node(DataType::kFloat), 24,
                                       {CodedValue(DataType::kFloat8E8M0, {0, 127, 130, 0xFF})}));
  std::vector<float> v = ValuesOf<float>(f[0]);
  EXPECT_EQ(v[0], std::ldexp(1.0f, -127));
  EXPECT_EQ(v[1], 1.0f);
  EXPECT_EQ(v[2], 8.0f);
  EXPECT_TRUE(std::isnan(v[3]));
}

TEST_F(CastTest, CodedTypesFollowTheVersions) {
  Value x = TensorValue<float>({1}, {1.0f});
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kFloat8E4M3FN), 18, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kInt4), 19, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kFloat4E2M1), 21, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kFloat8E8M0), 23, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, Node(DataType::kInt2), 24, {x}), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto v28, RunNode(registry_, Node(DataType::kInt2), 28, {x}));
  EXPECT_THAT(SubByteIntsOf(v28[0]), ElementsAre(1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Cast <to = 17, saturate = 2> (X)", 19, {x}),
                    kInvalidArgument);
}

TEST_F(CastTest, CastLikeHonoursSaturate) {
  Value x = TensorValue<float>({2}, {1e6f, 0.5f});
  Value like = CodedValue(DataType::kFloat8E4M3FN, {0});
  ASSERT_OK_AND_ASSIGN(auto sat, RunNode(registry_, "Y = CastLike(X, T)", 19, {x, like}));
  EXPECT_THAT(CodesOf(sat[0]), ElementsAre(0x7E, 0x30));
  ASSERT_OK_AND_ASSIGN(auto nosat,
                       RunNode(registry_, "Y = CastLike <saturate = 0> (X, T)", 19, {x, like}));
  EXPECT_THAT(CodesOf(nosat[0]), ElementsAre(0x7F, 0x30));
  ASSERT_OK_AND_ASSIGN(
      auto i2, RunNode(registry_, "Y = CastLike(X, T)", 25, {x, CodedValue(DataType::kInt2, {0})}));
  EXPECT_THAT(SubByteIntsOf(i2[0]), ElementsAre(0, 0));
  ASSERT_OK_AND_ASSIGN(
      auto e8, RunNode(registry_, "Y = CastLike <round_mode = \"down\"> (X, T)", 24,
                       {TensorValue<float>({1}, {3.0f}), CodedValue(DataType::kFloat8E8M0, {0})}));
  EXPECT_THAT(CodesOf(e8[0]), ElementsAre(128));
}

}  // namespace
}  // namespace onnxgate::ref
