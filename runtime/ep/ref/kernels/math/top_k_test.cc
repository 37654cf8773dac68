// Tests of TopK: k as attribute and input, largest/smallest, ties, NaN, k bounds.
#include "runtime/ep/ref/kernels/math/top_k.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class TopKTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value k2_ = TensorValue<int64_t>({1}, {2});
};

TEST_F(TopKTest, LargestAlongLastAxis) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "V, I = TopK (X, K)", 11,
                                         {TensorValue<float>({2, 3}, {1, 3, 2, 6, 5, 4}), k2_}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(3, 2, 6, 5));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(1, 2, 0, 1));
}

TEST_F(TopKTest, TiesKeepTheLowerIndexFirst) {
  Value x = TensorValue<int32_t>({5}, {4, 7, 4, 7, 1});
  ASSERT_OK_AND_ASSIGN(auto largest, RunNode(registry_, "V, I = TopK (X, K)", 11,
                                             {x, TensorValue<int64_t>({1}, {4})}));
  EXPECT_THAT(ValuesOf<int32_t>(largest[0]), ElementsAre(7, 7, 4, 4));
  EXPECT_THAT(ValuesOf<int64_t>(largest[1]), ElementsAre(1, 3, 0, 2));
  ASSERT_OK_AND_ASSIGN(auto smallest, RunNode(registry_, "V, I = TopK <largest = 0> (X, K)", 11,
                                              {x, TensorValue<int64_t>({1}, {3})}));
  EXPECT_THAT(ValuesOf<int32_t>(smallest[0]), ElementsAre(1, 4, 4));
  EXPECT_THAT(ValuesOf<int64_t>(smallest[1]), ElementsAre(4, 0, 2));
}

TEST_F(TopKTest, AxisZeroAndAttributeK) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "V, I = TopK <axis = 0, k = 1> (X)", 1,
                                         {TensorValue<float>({2, 2}, {1, 9, 5, 2})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(1, 2));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(5, 9));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(1, 0));
}

TEST_F(TopKTest, NanRanksAboveNumbers) {
  Value x = TensorValue<float>({3}, {1, NAN, 2});
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "V, I = TopK (X, K)", 11, {x, TensorValue<int64_t>({1}, {1})}));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(1));
  ASSERT_OK_AND_ASSIGN(auto smallest, RunNode(registry_, "V, I = TopK <largest = 0> (X, K)", 11,
                                              {x, TensorValue<int64_t>({1}, {3})}));
  EXPECT_THAT(ValuesOf<int64_t>(smallest[1]), ElementsAre(0, 2, 1));
}

TEST_F(TopKTest, KBounds) {
  Value x = TensorValue<float>({3}, {1, 2, 3});
  ASSERT_OK_AND_ASSIGN(
      auto zero, RunNode(registry_, "V, I = TopK (X, K)", 11, {x, TensorValue<int64_t>({1}, {0})}));
  EXPECT_THAT(DimsOf(zero[0]), ElementsAre(0));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "V, I = TopK (X, K)", 11, {x, TensorValue<int64_t>({1}, {4})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "V, I = TopK (X, K)", 11, {x, TensorValue<int64_t>({1}, {-1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "V, I = TopK (X, K)", 11, {x, TensorValue<int64_t>({2}, {1, 1})}),
      kInvalidArgument);
}

TEST_F(TopKTest, IntegersOnlyFromOpset11) {
  Value x = TensorValue<int64_t>({2}, {1, 2});
  EXPECT_ERROR_CODE(RunNode(registry_, "V, I = TopK (X, K)", 10, {x, k2_}), kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "V, I = TopK (X, K)", 11, {x, k2_}).ok());
}

TEST_F(TopKTest, BFloat16FromOpset24) {
  Value x = BFloat16Value({4}, {1, 3, 2, 3});
  EXPECT_ERROR_CODE(RunNode(registry_, "V, I = TopK (X, K)", 23, {x, k2_}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "V, I = TopK (X, K)", 24, {x, k2_}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(3, 3));
  EXPECT_THAT(ValuesOf<int64_t>(out[1]), ElementsAre(1, 3));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "V, I = TopK (X, K)", 24, {x, TensorValue<int64_t>({1}, {5})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
