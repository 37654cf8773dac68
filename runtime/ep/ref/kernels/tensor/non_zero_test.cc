// Tests of NonZero: index layout, scalars, empty inputs and the truthiness of each type.
#include "runtime/ep/ref/kernels/tensor/non_zero.h"

#include <cmath>
#include <string>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class NonZeroTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(NonZeroTest, RowsAreDimsColumnsAreHits) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = NonZero (X)", 13,
                                         {TensorValue<int32_t>({2, 3}, {0, 5, 0, 7, 0, 1})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(0, 1, 1, 1, 0, 2));
}

TEST_F(NonZeroTest, ScalarsAndEmptyInputs) {
  ASSERT_OK_AND_ASSIGN(auto scalar,
                       RunNode(registry_, "Y = NonZero (X)", 13, {TensorValue<float>({}, {3})}));
  EXPECT_THAT(DimsOf(scalar[0]), ElementsAre(1, 1));
  EXPECT_THAT(ValuesOf<int64_t>(scalar[0]), ElementsAre(0));
  ASSERT_OK_AND_ASSIGN(auto zero,
                       RunNode(registry_, "Y = NonZero (X)", 13, {TensorValue<float>({}, {0})}));
  EXPECT_THAT(DimsOf(zero[0]), ElementsAre(1, 0));
  ASSERT_OK_AND_ASSIGN(
      auto empty, RunNode(registry_, "Y = NonZero (X)", 13, {TensorValue<float>({2, 0, 3}, {})}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(3, 0));
}

TEST_F(NonZeroTest, TruthinessPerType) {
  ASSERT_OK_AND_ASSIGN(auto b, RunNode(registry_, "Y = NonZero (X)", 13,
                                       {TensorValue<bool>({3}, {true, false, true})}));
  EXPECT_THAT(ValuesOf<int64_t>(b[0]), ElementsAre(0, 2));
  ASSERT_OK_AND_ASSIGN(auto s, RunNode(registry_, "Y = NonZero (X)", 13,
                                       {TensorValue<std::string>({3}, {"", "a", "0"})}));
  EXPECT_THAT(ValuesOf<int64_t>(s[0]), ElementsAre(1, 2));
  ASSERT_OK_AND_ASSIGN(auto f, RunNode(registry_, "Y = NonZero (X)", 13,
                                       {TensorValue<float>({3}, {-0.0f, NAN, 0})}));
  EXPECT_THAT(ValuesOf<int64_t>(f[0]), ElementsAre(1));
  ASSERT_OK_AND_ASSIGN(auto h,
                       RunNode(registry_, "Y = NonZero (X)", 13, {BFloat16Value({2}, {0, 0.5f})}));
  EXPECT_THAT(ValuesOf<int64_t>(h[0]), ElementsAre(1));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = NonZero (X)", 12, {BFloat16Value({2}, {0, 0.5f})}),
                    kUnimplemented);
}

}  // namespace
}  // namespace onnxgate::ref
