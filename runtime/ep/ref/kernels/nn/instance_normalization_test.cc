// Tests of InstanceNormalization: statistics per image and channel, scale and bias per channel.
#include "runtime/ep/ref/kernels/nn/instance_normalization.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

TEST(InstanceNormalizationTest, NormalizesEachPlane) {
  // Planes {1, 3} and {10, 30}: each normalizes to {-1, 1} (up to epsilon), then scale and B.
  auto y = RunNn("Y = InstanceNormalization <epsilon = 0.0> (X, scale, B)", 6,
                 {TensorValue<float>({1, 2, 2}, {1, 3, 10, 30}), TensorValue<float>({2}, {1, 2}),
                  TensorValue<float>({2}, {0, 5})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{-1, 1, 3, 7}));
}

TEST(InstanceNormalizationTest, EpsilonKeepsConstantPlanesFinite) {
  auto y = RunNn("Y = InstanceNormalization(X, scale, B)", 6,
                 {TensorValue<double>({2, 1, 3}, {2, 2, 2, 1, 2, 3}), TensorValue<double>({1}, {1}),
                  TensorValue<double>({1}, {0})});
  ASSERT_EQ(y.size(), 1u);
  const double r = 1 / std::sqrt(2.0 / 3 + 1e-5);
  EXPECT_THAT(Elements<double>(y[0]), FloatsNear(std::vector<double>{0, 0, 0, -r, 0, r}));
}

TEST(InstanceNormalizationTest, ScaleOfTheWrongLengthIsAnError) {
  EXPECT_EQ(RunNnStatus("Y = InstanceNormalization(X, scale, B)", 6,
                        {TensorValue<float>({1, 2, 2}, {1, 2, 3, 4}), TensorValue<float>({1}, {1}),
                         TensorValue<float>({2}, {0, 0})})
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(InstanceNormalizationTest, Version1AndBfloat16FromVersion22) {
  const std::vector<Value> f = {TensorValue<float>({1, 1, 2}, {1, 3}), TensorValue<float>({1}, {2}),
                                TensorValue<float>({1}, {1})};
  auto v1 = RunNn("Y = InstanceNormalization <epsilon = 0.0> (X, scale, B)", 1, f);
  ASSERT_EQ(v1.size(), 1u);
  EXPECT_THAT(Elements<float>(v1[0]), FloatsNear(std::vector<double>{-1, 3}));
  auto bf =
      RunNn("Y = InstanceNormalization <epsilon = 0.0> (X, scale, B)", 22,
            {BFloat16Value({1, 1, 2}, {1, 3}), BFloat16Value({1}, {2}), BFloat16Value({1}, {1})});
  ASSERT_EQ(bf.size(), 1u);
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ::testing::ElementsAre(-1, 3));
}

}  // namespace
}  // namespace onnxgate::ref
