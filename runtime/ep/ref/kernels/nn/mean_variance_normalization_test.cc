// Tests of MeanVarianceNormalization: the default axes [0, 2, 3], custom and negative axes, and
// a constant group (zero variance gives zeros, not NaN).
#include "runtime/ep/ref/kernels/nn/mean_variance_normalization.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

TEST(MeanVarianceNormalizationTest, DefaultAxesNormalizeEachChannel) {
  // Channel 0 holds 1, 3 (mean 2, std 1); channel 1 holds 5, 5 (std 0).
  auto y = RunNn("Y = MeanVarianceNormalization (X)", 13,
                 {TensorValue<float>({1, 2, 1, 2}, {1, 3, 5, 5})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{-1, 1, 0, 0}));
}

TEST(MeanVarianceNormalizationTest, NegativeAxesOverTheLastDim) {
  // Rows [0, 4] and [1, 1, ...]: row 0 mean 2, std 2.
  auto y = RunNn("Y = MeanVarianceNormalization <axes = [-1]> (X)", 9,
                 {TensorValue<double>({2, 2}, {0, 4, 1, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<double>(y[0]), FloatsNear(std::vector<double>{-1, 1, 0, 0}));
}

TEST(MeanVarianceNormalizationTest, RejectsAxesOutOfRange) {
  EXPECT_EQ(RunNnStatus("Y = MeanVarianceNormalization <axes = [2]> (X)", 13,
                        {TensorValue<float>({2, 2}, {0, 1, 2, 3})})
                .code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
