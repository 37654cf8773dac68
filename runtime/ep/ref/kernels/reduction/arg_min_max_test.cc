// Tests of ArgMax and ArgMin: axes, keepdims, select_last_index, NaN and version rules.
#include "runtime/ep/ref/kernels/reduction/arg_min_max.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class ArgMinMaxTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  // [[2, 5, 5], [7, 1, 1]]
  Value x_ = TensorValue<int32_t>({2, 3}, {2, 5, 5, 7, 1, 1});
};

TEST_F(ArgMinMaxTest, DefaultAxisZeroKeepsDims) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ArgMax (X)", 13, {x_}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(1, 3));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(1, 0, 0));
}

TEST_F(ArgMinMaxTest, FirstOrLastOfEqualExtremes) {
  ASSERT_OK_AND_ASSIGN(auto first,
                       RunNode(registry_, "Y = ArgMax <axis = 1, keepdims = 0> (X)", 13, {x_}));
  EXPECT_THAT(DimsOf(first[0]), ElementsAre(2));
  EXPECT_THAT(ValuesOf<int64_t>(first[0]), ElementsAre(1, 0));
  ASSERT_OK_AND_ASSIGN(auto last, RunNode(registry_,
                                          "Y = ArgMin <axis = -1, keepdims = 0, "
                                          "select_last_index = 1> (X)",
                                          13, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(last[0]), ElementsAre(0, 2));
  ASSERT_OK_AND_ASSIGN(auto min_first, RunNode(registry_, "Y = ArgMin <axis = 1> (X)", 13, {x_}));
  EXPECT_THAT(ValuesOf<int64_t>(min_first[0]), ElementsAre(0, 1));
}

TEST_F(ArgMinMaxTest, NanIsTheExtremeForBothOps) {
  Value x = TensorValue<float>({4}, {1, NAN, 3, NAN});
  ASSERT_OK_AND_ASSIGN(auto mx, RunNode(registry_, "Y = ArgMax <keepdims = 0> (X)", 13, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(mx[0]), ElementsAre(1));
  ASSERT_OK_AND_ASSIGN(auto mn, RunNode(registry_, "Y = ArgMin <keepdims = 0> (X)", 13, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(mn[0]), ElementsAre(1));
  ASSERT_OK_AND_ASSIGN(
      auto last,
      RunNode(registry_, "Y = ArgMax <keepdims = 0, select_last_index = 1> (X)", 13, {x}));
  EXPECT_THAT(ValuesOf<int64_t>(last[0]), ElementsAre(3));
}

TEST_F(ArgMinMaxTest, VersionRules) {
  // Negative axes from 11; the bfloat16 type from 13.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ArgMax <axis = -1> (X)", 10, {x_}), kInvalidArgument);
  EXPECT_TRUE(RunNode(registry_, "Y = ArgMax <axis = -1> (X)", 11, {x_}).ok());
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ArgMax (X)", 12, {BFloat16Value({2}, {1, 2})}),
                    kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto bf,
                       RunNode(registry_, "Y = ArgMax (X)", 13, {BFloat16Value({2}, {1, 2})}));
  EXPECT_THAT(ValuesOf<int64_t>(bf[0]), ElementsAre(1));
}

TEST_F(ArgMinMaxTest, EmptyAxisIsAnErrorButEmptyOuterDimsAreNot) {
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ArgMax <axis = 1> (X)", 13, {TensorValue<float>({2, 0}, {})}),
      kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ArgMax <axis = 1, keepdims = 0> (X)", 13,
                                         {TensorValue<float>({0, 3}, {})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(0));
}

TEST_F(ArgMinMaxTest, ScalarInput) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = ArgMin (X)", 13, {TensorValue<double>({}, {4})}));
  EXPECT_THAT(DimsOf(out[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(0));
}

}  // namespace
}  // namespace onnxgate::ref
