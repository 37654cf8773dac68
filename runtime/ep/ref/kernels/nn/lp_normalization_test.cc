// Tests of LpNormalization: L1 and L2 along any axis, zero lines, bfloat16 from version 22, and
// rejected p and axis values.
#include "runtime/ep/ref/kernels/nn/lp_normalization.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(LpNormalizationTest, L2AlongTheLastAxisByDefault) {
  auto y = RunNn("Y = LpNormalization(X)", 1, {TensorValue<float>({2, 2}, {3, 4, 0, 0})});
  ASSERT_EQ(y.size(), 1u);
  // A zero line stays zero instead of 0 / 0.
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{0.6, 0.8, 0, 0}));
}

TEST(LpNormalizationTest, L1AlongTheFirstAxisUsesAbsoluteValues) {
  auto y = RunNn("Y = LpNormalization <axis = 0, p = 1> (X)", 1,
                 {TensorValue<double>({2, 2}, {-1, 6, 3, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<double>(y[0]), FloatsNear(std::vector<double>{-0.25, 0.75, 0.75, 0.25}));
}

TEST(LpNormalizationTest, MiddleAxisAndBfloat16FromVersion22) {
  auto y =
      RunNn("Y = LpNormalization <axis = -2> (X)", 22, {BFloat16Value({1, 2, 2}, {3, 0, 4, 2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(y[0]), ElementsAre(BFloat16::FromFloat(0.6f).ToFloat(), 0,
                                                        BFloat16::FromFloat(0.8f).ToFloat(), 1));
}

TEST(LpNormalizationTest, BadPAndAxisAreErrors) {
  const Value x = TensorValue<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_ERROR_CODE(RunNnStatus("Y = LpNormalization <p = 3> (X)", 1, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = LpNormalization <p = 0> (X)", 22, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = LpNormalization <axis = 2> (X)", 1, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = LpNormalization <axis = -3> (X)", 1, {x}), kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = LpNormalization(X)", 1, {TensorValue<float>({}, {1})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
