// Tests of comparisons, logic, Where, and the variadic Max/Min/Sum/Mean.
#include "runtime/ep/ref/kernels/logical/compare_logic.h"

#include <cmath>
#include <limits>
#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class CompareLogicTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(CompareLogicTest, ComparisonsBroadcastAndTreatNaNAsUnordered) {
  std::vector<Value> in = {TensorValue<float>({2, 2}, {1, 2, kNaN, 4}),
                           TensorValue<float>({2}, {2, 2})};
  ASSERT_OK_AND_ASSIGN(auto less, RunNode(registry_, "C = Less(A, B)", 13, in));
  EXPECT_THAT(ValuesOf<bool>(less[0]), ElementsAre(true, false, false, false));
  ASSERT_OK_AND_ASSIGN(auto greater, RunNode(registry_, "C = Greater(A, B)", 13, in));
  EXPECT_THAT(ValuesOf<bool>(greater[0]), ElementsAre(false, false, false, true));
  ASSERT_OK_AND_ASSIGN(auto le, RunNode(registry_, "C = LessOrEqual(A, B)", 16, in));
  EXPECT_THAT(ValuesOf<bool>(le[0]), ElementsAre(true, true, false, false));
  ASSERT_OK_AND_ASSIGN(auto ge, RunNode(registry_, "C = GreaterOrEqual(A, B)", 12, in));
  EXPECT_THAT(ValuesOf<bool>(ge[0]), ElementsAre(false, true, false, true));
  ASSERT_OK_AND_ASSIGN(auto eq, RunNode(registry_, "C = Equal(A, A)", 13, {in[0], in[0]}));
  EXPECT_THAT(ValuesOf<bool>(eq[0]), ElementsAre(true, true, false, true));
}

TEST_F(CompareLogicTest, EqualTypeListsGrowWithTheVersion) {
  std::vector<Value> f = {TensorValue<float>({1}, {1}), TensorValue<float>({1}, {1})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Equal(A, B)", 10, f), kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "C = Equal(A, B)", 11, f).ok());
  std::vector<Value> b = {TensorValue<bool>({2}, {true, false}), TensorValue<bool>({}, {true})};
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Equal(A, B)", 7, b));
  EXPECT_THAT(ValuesOf<bool>(out[0]), ElementsAre(true, false));
  std::vector<Value> i = {TensorValue<int32_t>({1}, {1}), TensorValue<int32_t>({1}, {2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Less(A, B)", 8, i), kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "C = Less(A, B)", 9, i).ok());
}

TEST_F(CompareLogicTest, EqualComparesStringsFromVersion19) {
  std::vector<Value> in = {TensorValue<std::string>({2, 2}, {"a", "b", "", "ab"}),
                           TensorValue<std::string>({2}, {"a", "ab"})};
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Equal(A, B)", 19, in));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<bool>(out[0]), ElementsAre(true, false, false, true));
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Equal(A, B)", 13, in), kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Less(A, B)", 13, in), kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Equal(A, B)", 19,
                            {in[0], TensorValue<std::string>({3}, {"a", "b", "c"})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(Compare(CompareOp::kLess, in[0].tensor(), in[1].tensor()), kInvalidArgument);
}

TEST_F(CompareLogicTest, LegacyComparisonBroadcast) {
  std::vector<Value> in = {TensorValue<int32_t>({2, 2}, {1, 2, 3, 4}),
                           TensorValue<int32_t>({2}, {1, 4})};
  EXPECT_ERROR_CODE(RunNode(registry_, "C = Equal(A, B)", 1, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "C = Equal <broadcast = 1> (A, B)", 1, in));
  EXPECT_THAT(ValuesOf<bool>(out[0]), ElementsAre(true, false, false, true));
}

TEST_F(CompareLogicTest, BooleanLogic) {
  std::vector<Value> in = {TensorValue<bool>({2, 2}, {false, false, true, true}),
                           TensorValue<bool>({2}, {false, true})};
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, "C = And(A, B)", 7, in));
  EXPECT_THAT(ValuesOf<bool>(a[0]), ElementsAre(false, false, false, true));
  ASSERT_OK_AND_ASSIGN(auto o, RunNode(registry_, "C = Or(A, B)", 7, in));
  EXPECT_THAT(ValuesOf<bool>(o[0]), ElementsAre(false, true, true, true));
  ASSERT_OK_AND_ASSIGN(auto x, RunNode(registry_, "C = Xor(A, B)", 7, in));
  EXPECT_THAT(ValuesOf<bool>(x[0]), ElementsAre(false, true, true, false));
  ASSERT_OK_AND_ASSIGN(auto n, RunNode(registry_, "C = Not(A)", 1, {in[0]}));
  EXPECT_THAT(ValuesOf<bool>(n[0]), ElementsAre(true, true, false, false));
  // And-1 needs broadcast=1 for unequal shapes.
  EXPECT_ERROR_CODE(RunNode(registry_, "C = And(A, B)", 1, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto legacy, RunNode(registry_, "C = And <broadcast = 1> (A, B)", 1, in));
  EXPECT_THAT(ValuesOf<bool>(legacy[0]), ElementsAre(false, false, false, true));
}

TEST_F(CompareLogicTest, WhereBroadcastsAllThreeInputs) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Z = Where(C, X, Y)", 16,
                        {TensorValue<bool>({2, 1}, {true, false}),
                         TensorValue<int64_t>({3}, {1, 2, 3}), TensorValue<int64_t>({}, {-1})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(1, 2, 3, -1, -1, -1));
  ASSERT_OK_AND_ASSIGN(auto s, RunNode(registry_, "Z = Where(C, X, Y)", 9,
                                       {TensorValue<bool>({2}, {false, true}),
                                        TensorValue<std::string>({2}, {"a", "b"}),
                                        TensorValue<std::string>({2}, {"c", "d"})}));
  EXPECT_THAT(ValuesOf<std::string>(s[0]), ElementsAre("c", "b"));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Z = Where(C, X, Y)", 9,
              {TensorValue<bool>({1}, {true}), BFloat16Value({1}, {1}), BFloat16Value({1}, {2})}),
      kUnimplemented);
}

TEST_F(CompareLogicTest, MaxMinPropagateNaNAndBroadcastFromOpset8) {
  std::vector<Value> in = {TensorValue<float>({3}, {1, kNaN, 5}), TensorValue<float>({}, {3}),
                           TensorValue<float>({1}, {2})};
  ASSERT_OK_AND_ASSIGN(auto mx, RunNode(registry_, "Y = Max(A, B, C)", 8, in));
  std::vector<float> v = ValuesOf<float>(mx[0]);
  EXPECT_EQ(v[0], 3);
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 5);
  ASSERT_OK_AND_ASSIGN(auto mn, RunNode(registry_, "Y = Min(A, B, C)", 13, in));
  EXPECT_EQ(ValuesOf<float>(mn[0])[0], 1);
  // Before opset 8 the shapes must be equal.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Max(A, B, C)", 6, in), kInvalidArgument);
}

TEST_F(CompareLogicTest, SumAndMeanOfOneOrManyInputs) {
  ASSERT_OK_AND_ASSIGN(auto one,
                       RunNode(registry_, "Y = Sum(A)", 13, {TensorValue<double>({2}, {1.5, -2})}));
  EXPECT_THAT(ValuesOf<double>(one[0]), ElementsAre(1.5, -2));
  ASSERT_OK_AND_ASSIGN(auto mean, RunNode(registry_, "Y = Mean(A, B)", 13,
                                          {TensorValue<float>({2, 2}, {1, 2, 3, 4}),
                                           TensorValue<float>({2}, {3, 6})}));
  EXPECT_THAT(ValuesOf<float>(mean[0]), ElementsAre(2, 4, 3, 5));
  // Float sums accumulate in double: 1e8 + 1 - 1e8 keeps the 1.
  ASSERT_OK_AND_ASSIGN(auto exact,
                       RunNode(registry_, "Y = Sum(A, B, C)", 13,
                               {TensorValue<float>({1}, {1e8f}), TensorValue<float>({1}, {1}),
                                TensorValue<float>({1}, {-1e8f})}));
  EXPECT_THAT(ValuesOf<float>(exact[0]), ElementsAre(1));
}

TEST_F(CompareLogicTest, MaxOfIntegersFromOpset12) {
  std::vector<Value> in = {TensorValue<uint8_t>({2}, {1, 200}),
                           TensorValue<uint8_t>({2}, {100, 2})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Max(A, B)", 11, in), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Max(A, B)", 12, in));
  EXPECT_THAT(ValuesOf<uint8_t>(out[0]), ElementsAre(100, 200));
}

}  // namespace
}  // namespace onnxgate::ref
