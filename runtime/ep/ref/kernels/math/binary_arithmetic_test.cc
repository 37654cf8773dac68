// Tests of Add, Sub, Mul, Div and Pow: broadcasting, integer semantics, legacy broadcast and the
// type lists of each version.
#include "runtime/ep/ref/kernels/math/binary_arithmetic.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

class BinaryArithmeticTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(BinaryArithmeticTest, AddBroadcastsRowAgainstMatrix) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Add(A, B)", 14,
                                         {TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
                                          TensorValue<float>({3}, {10, 20, 30})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(11, 22, 33, 14, 25, 36));
}

TEST_F(BinaryArithmeticTest, ScalarOperandsBroadcastBothWays) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Sub(A, B)", 14,
                                         {TensorValue<int32_t>({}, {10}),
                                          TensorValue<int32_t>({2, 2}, {1, 2, 3, 4})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(9, 8, 7, 6));
  ASSERT_OK_AND_ASSIGN(auto scalar,
                       RunNode(registry_, "C = Mul(A, B)", 14,
                               {TensorValue<int64_t>({}, {6}), TensorValue<int64_t>({}, {7})}));
  EXPECT_TRUE(DimsOf(scalar[0]).empty());
  EXPECT_THAT(ValuesOf<int64_t>(scalar[0]), ElementsAre(42));
}

TEST_F(BinaryArithmeticTest, RankMismatchBroadcastsOnTheRight) {
  // [2,1,3] with [4,1] -> [2,4,3]
  std::vector<double> a = {1, 2, 3, 4, 5, 6};
  std::vector<double> b = {100, 200, 300, 400};
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "C = Add(A, B)", 14,
                        {TensorValue<double>({2, 1, 3}, a), TensorValue<double>({4, 1}, b)}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 4, 3));
  std::vector<double> got = ValuesOf<double>(out[0]);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 3; ++k) EXPECT_EQ(got[(i * 4 + j) * 3 + k], a[i * 3 + k] + b[j]);
    }
  }
}

TEST_F(BinaryArithmeticTest, ZeroSizeDimBroadcastsToEmpty) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "C = Add(A, B)", 14,
                        {TensorValue<float>({0, 3}, {}), TensorValue<float>({1, 3}, {1, 2, 3})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(0, 3));
  ASSERT_OK_AND_ASSIGN(auto zero_vs_one,
                       RunNode(registry_, "C = Mul(A, B)", 14,
                               {TensorValue<float>({2, 0}, {}), TensorValue<float>({1}, {5})}));
  EXPECT_THAT(DimsOf(zero_vs_one[0]), ElementsAre(2, 0));
}

TEST_F(BinaryArithmeticTest, HugeBroadcastResultIsAnErrorNotACrash) {
  // 10^6 x 10^6 floats would take 4 TB.
  std::vector<float> column(1000000, 1.0f);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "C = Add(A, B)", 14,
              {TensorValue<float>({1000000, 1}, column), TensorValue<float>({1, 1000000}, column)}),
      kInvalidArgument);
}

TEST_F(BinaryArithmeticTest, IncompatibleShapesAreInvalidArgument) {
  auto out =
      RunNode(registry_, "C = Add(A, B)", 14,
              {TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6}), TensorValue<float>({2}, {1, 2})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), HasSubstr("Add"));
  EXPECT_THAT(out.status().message(), HasSubstr("[2,3]"));
}

TEST_F(BinaryArithmeticTest, IntegerDivisionTruncatesTowardZero) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Div(A, B)", 14,
                                         {TensorValue<int32_t>({4}, {7, -7, 7, -7}),
                                          TensorValue<int32_t>({4}, {2, 2, -2, -2})}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(3, -3, -3, 3));
  ASSERT_OK_AND_ASSIGN(
      auto u8, RunNode(registry_, "C = Div(A, B)", 14,
                       {TensorValue<uint8_t>({2}, {255, 7}), TensorValue<uint8_t>({2}, {2, 7})}));
  EXPECT_THAT(ValuesOf<uint8_t>(u8[0]), ElementsAre(127, 1));
}

TEST_F(BinaryArithmeticTest, IntegerDivisionByZeroIsAnError) {
  auto out = RunNode(registry_, "C = Div(A, B)", 14,
                     {TensorValue<int64_t>({3}, {1, 2, 3}), TensorValue<int64_t>({3}, {1, 0, 1})});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(out.status().message(), HasSubstr("division by zero"));
  // Float division by zero is IEEE: infinities and NaN, no error.
  ASSERT_OK_AND_ASSIGN(
      auto f, RunNode(registry_, "C = Div(A, B)", 14,
                      {TensorValue<float>({3}, {1, -1, 0}), TensorValue<float>({3}, {0, 0, 0})}));
  std::vector<float> v = ValuesOf<float>(f[0]);
  EXPECT_EQ(v[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[1], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(v[2]));
}

TEST_F(BinaryArithmeticTest, SignedOverflowWraps) {
  ASSERT_OK_AND_ASSIGN(auto add, RunNode(registry_, "C = Add(A, B)", 14,
                                         {TensorValue<int8_t>({2}, {127, -128}),
                                          TensorValue<int8_t>({2}, {1, -1})}));
  EXPECT_THAT(ValuesOf<int8_t>(add[0]), ElementsAre(-128, 127));
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  ASSERT_OK_AND_ASSIGN(
      auto div, RunNode(registry_, "C = Div(A, B)", 14,
                        {TensorValue<int32_t>({1}, {kMin}), TensorValue<int32_t>({1}, {-1})}));
  EXPECT_THAT(ValuesOf<int32_t>(div[0]), ElementsAre(kMin));
  ASSERT_OK_AND_ASSIGN(auto mul, RunNode(registry_, "C = Mul(A, B)", 14,
                                         {TensorValue<uint16_t>({1}, {65535}),
                                          TensorValue<uint16_t>({1}, {65535})}));
  EXPECT_THAT(ValuesOf<uint16_t>(mul[0]), ElementsAre(1));
}

TEST_F(BinaryArithmeticTest, Float16ComputesThroughFloat) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Mul(A, B)", 14,
                                         {HalfValue({3}, {1.5f, -2.0f, 0.1f}),
                                          HalfValue({3}, {2.0f, 3.0f, 10.0f})}));
  std::vector<float> v = HalfValuesOf<Float16>(out[0]);
  EXPECT_FLOAT_EQ(v[0], 3.0f);
  EXPECT_FLOAT_EQ(v[1], -6.0f);
  EXPECT_NEAR(v[2], 1.0f, 1e-3);
  ASSERT_OK_AND_ASSIGN(auto bf, RunNode(registry_, "C = Add(A, B)", 13,
                                        {BFloat16Value({1}, {1.0f}), BFloat16Value({1}, {2.0f})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(3.0f));
}

TEST_F(BinaryArithmeticTest, TypeListsFollowTheVersion) {
  std::vector<Value> u8 = {TensorValue<uint8_t>({1}, {1}), TensorValue<uint8_t>({1}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Add(A, B)", 13, u8), kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "C = Add(A, B)", 14, u8).ok());
  std::vector<Value> bf = {BFloat16Value({1}, {1}), BFloat16Value({1}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Add(A, B)", 12, bf), kUnimplemented);
  std::vector<Value> i32 = {TensorValue<int32_t>({1}, {1}), TensorValue<int32_t>({1}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Add(A, B)", 5, i32), kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "C = Add(A, B)", 6, i32).ok());
}

TEST_F(BinaryArithmeticTest, MixedTypesAreRejected) {
  EXPECT_FALSE(BinaryArithmetic(ArithmeticOp::kAdd, Tensor::FromVector<float>({1}, {1}),
                                Tensor::FromVector<double>({1}, {1}))
                   .ok());
}

TEST_F(BinaryArithmeticTest, LegacyBroadcastNeedsTheAttribute) {
  std::vector<Value> in = {TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
                           TensorValue<float>({3}, {1, 1, 1})};
  // Opset 6 without broadcast=1: shapes must match.
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Add(A, B)", 6, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Add <broadcast = 1> (A, B)", 6, in));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(2, 3, 4, 5, 6, 7));
}

TEST_F(BinaryArithmeticTest, LegacyBroadcastWithAxis) {
  // A [2,3,2], B [3] placed at axis 1.
  std::vector<float> a(12, 0.0f);
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "C = Sub <broadcast = 1, axis = 1> (A, B)", 1,
                        {TensorValue<float>({2, 3, 2}, a), TensorValue<float>({3}, {1, 2, 3})}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAreArray({-1.f, -1.f, -2.f, -2.f, -3.f, -3.f, -1.f,
                                                         -1.f, -2.f, -2.f, -3.f, -3.f}));
  // Suffix matching fails for [3] against trailing dim 2.
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Sub <broadcast = 1> (A, B)", 1,
                            {TensorValue<float>({2, 3, 2}, a), TensorValue<float>({3}, {1, 2, 3})}),
                    kInvalidArgument);
  // A one-element B broadcasts anywhere; numpy-style [3,1] does not exist in the legacy rule.
  ASSERT_OK_AND_ASSIGN(auto one, RunNode(registry_, "C = Mul <broadcast = 1> (A, B)", 6,
                                         {TensorValue<float>({2, 2}, {1, 2, 3, 4}),
                                          TensorValue<float>({1, 1}, {3})}));
  EXPECT_THAT(ValuesOf<float>(one[0]), ElementsAre(3, 6, 9, 12));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "C = Mul <broadcast = 1> (A, B)", 6,
              {TensorValue<float>({2, 2}, {1, 2, 3, 4}), TensorValue<float>({2, 1}, {1, 2})}),
      kInvalidArgument);
}

TEST_F(BinaryArithmeticTest, PowWithMixedTypes) {
  ASSERT_OK_AND_ASSIGN(auto ii, RunNode(registry_, "Z = Pow(X, Y)", 15,
                                        {TensorValue<int32_t>({4}, {2, -3, 2, -1}),
                                         TensorValue<int32_t>({4}, {10, 3, -1, -3})}));
  EXPECT_THAT(ValuesOf<int32_t>(ii[0]), ElementsAre(1024, -27, 0, -1));
  ASSERT_OK_AND_ASSIGN(auto fi, RunNode(registry_, "Z = Pow(X, Y)", 15,
                                        {TensorValue<float>({2}, {1.5f, 4.0f}),
                                         TensorValue<int64_t>({2}, {2, -1})}));
  EXPECT_THAT(ValuesOf<float>(fi[0]), ElementsAre(2.25f, 0.25f));
  ASSERT_OK_AND_ASSIGN(auto if_, RunNode(registry_, "Z = Pow(X, Y)", 15,
                                         {TensorValue<int64_t>({3}, {1, 2, 3}),
                                          TensorValue<float>({3}, {4, 5, 0.5f})}));
  EXPECT_THAT(ValuesOf<int64_t>(if_[0]), ElementsAre(1, 32, 1));
  // Before Pow-12 X and Y share one type.
  EXPECT_FALSE(RunNode(registry_, "Z = Pow(X, Y)", 11,
                       {TensorValue<float>({1}, {2}), TensorValue<double>({1}, {2})})
                   .ok());
}

TEST_F(BinaryArithmeticTest, PowBroadcastsAndKeepsFloatSpecials) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Z = Pow(X, Y)", 13,
                                         {TensorValue<double>({2, 2}, {-8, 4, 0, 9}),
                                          TensorValue<double>({2}, {0.5, 2})}));
  std::vector<double> v = ValuesOf<double>(out[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 16);
  EXPECT_EQ(v[2], 0);
  EXPECT_EQ(v[3], 81);
}

}  // namespace
}  // namespace onnxgate::ref
