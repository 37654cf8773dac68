// Tests of Slice: clamping, negative steps, defaults and the attribute form of Slice-1.
#include "runtime/ep/ref/kernels/tensor/slice.h"

#include <limits>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

class SliceTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  Value x_ = TensorValue<int32_t>({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  static Value L(std::vector<int64_t> v) {
    return TensorValue<int64_t>({static_cast<int64_t>(v.size())}, v);
  }
};

TEST_F(SliceTest, StartsEndsAxesSteps) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Slice(X, S, E, A, T)", 13,
                                         {x_, L({1}), L({5}), L({1}), L({2})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 2));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, 3, 6, 8));
}

TEST_F(SliceTest, DefaultAxesAndOutOfRangeBoundsClamp) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Slice(X, S, E)", 10, {x_, L({1, -100}), L({kMax, 2})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(1, 2));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(5, 6));
  ASSERT_OK_AND_ASSIGN(auto empty,
                       RunNode(registry_, "Y = Slice(X, S, E)", 10, {x_, L({0, 7}), L({2, 9})}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(2, 0));
}

TEST_F(SliceTest, NegativeStepsReverse) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Slice(X, S, E, A, T)", 13,
                                         {x_, L({-1}), L({kMin}), L({1}), L({-1})}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(4, 3, 2, 1, 0, 9, 8, 7, 6, 5));
  ASSERT_OK_AND_ASSIGN(auto step2, RunNode(registry_, "Y = Slice(X, S, E, A, T)", 13,
                                           {x_, L({10}), L({0}), L({1}), L({-3})}));
  EXPECT_THAT(ValuesOf<int32_t>(step2[0]), ElementsAre(4, 1, 9, 6));
  ASSERT_OK_AND_ASSIGN(auto huge, RunNode(registry_, "Y = Slice(X, S, E, A, T)", 13,
                                          {x_, L({-1}), L({kMin}), L({1}), L({kMin})}));
  EXPECT_THAT(ValuesOf<int32_t>(huge[0]), ElementsAre(4, 9));
}

TEST_F(SliceTest, NegativeAxesFromOpset11AndInvalidInputs) {
  std::vector<Value> in = {x_, L({0}), L({1}), L({-1})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Slice(X, S, E, A)", 10, in), kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Slice(X, S, E, A)", 11, in));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(0, 5));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Slice(X, S, E, A, T)", 13, {x_, L({0}), L({1}), L({1}), L({0})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = Slice(X, S, E, A)", 13, {x_, L({0, 0}), L({1, 1}), L({1, 1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Slice(X, S, E)", 13, {x_, L({0}), L({1, 1})}),
                    kInvalidArgument);
}

TEST_F(SliceTest, Int32IndicesAndOpset1Attributes) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Slice(X, S, E)", 13,
                                         {x_, TensorValue<int32_t>({2}, {0, 3}),
                                          TensorValue<int32_t>({2}, {1, 5})}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(3, 4));
  ASSERT_OK_AND_ASSIGN(
      auto attr,
      RunNode(registry_, "Y = Slice <starts = [1], ends = [3], axes = [1]> (X)", 1, {x_}));
  EXPECT_THAT(ValuesOf<int32_t>(attr[0]), ElementsAre(1, 2, 6, 7));
}

}  // namespace
}  // namespace onnxgate::ref
