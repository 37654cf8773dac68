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

}  // namespace
}  // namespace onnxgate::ref
