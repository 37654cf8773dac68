// Tests of RMSNormalization: the trailing-axes statistics, negative axes, epsilon, Scale
// broadcasting and its type, and rejected axes, scales and stash types.
#include "runtime/ep/ref/kernels/nn/rms_normalization.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(RmsNormalizationTest, LastAxis) {
  // Rows {3, 4} (rms sqrt(12.5)) and {1, 1} (rms 1).
  auto y = RunNn("Y = RMSNormalization <epsilon = 0.0> (X, S)", 23,
                 {TensorValue<float>({2, 2}, {3, 4, 1, 1}), TensorValue<float>({2}, {1, 2})});
  ASSERT_EQ(y.size(), 1u);
  const double r = std::sqrt(12.5);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{3 / r, 8 / r, 1, 2}));
}

TEST(RmsNormalizationTest, AxisZeroAndEpsilon) {
  auto y = RunNn("Y = RMSNormalization <axis = -2, epsilon = 1.0> (X, S)", 23,
                 {TensorValue<double>({2, 2}, {1, 1, 1, 1}), TensorValue<double>({}, {3})});
  ASSERT_EQ(y.size(), 1u);
  const double v = 3 / std::sqrt(2.0);
  EXPECT_THAT(Elements<double>(y[0]), FloatsNear(std::vector<double>{v, v, v, v}));
}

TEST(RmsNormalizationTest, OutputHasScaleType) {
  auto y = RunNn("Y = RMSNormalization <epsilon = 0.0> (X, S)", 23,
                 {TensorValue<float>({1, 2}, {2, 2}), HalfValue({2}, {1, 0.5f})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kFloat16);
  EXPECT_THAT(HalfValuesOf<Float16>(y[0]), ElementsAre(1, 0.5f));
}

TEST(RmsNormalizationTest, RejectsBadInputs) {
  Value x = TensorValue<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_ERROR_CODE(RunNnStatus("Y = RMSNormalization <axis = 2> (X, S)", 23,
                                {x, TensorValue<float>({2}, {1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = RMSNormalization(X, S)", 23, {x, TensorValue<float>({3}, {1, 1, 1})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = RMSNormalization <stash_type = 7> (X, S)", 23,
                                {x, TensorValue<float>({2}, {1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = RMSNormalization <epsilon = -1.0> (X, S)", 23,
                                {x, TensorValue<float>({2}, {1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = RMSNormalization(X, S)", 23,
                                {TensorValue<float>({}, {1}), TensorValue<float>({}, {1})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
