// Tests of LayerNormalization: axis handling, Scale and B broadcasting, the Mean and InvStdDev
// outputs and their shapes.
#include "runtime/ep/ref/kernels/nn/layer_normalization.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

TEST(LayerNormalizationTest, LastAxisWithStatistics) {
  // Rows {1, 3} and {2, 6}: means 2 and 4, variances 1 and 4.
  auto y = RunNn("Y, Mean, InvStdDev = LayerNormalization <epsilon = 0.0> (X, Scale, B)", 17,
                 {TensorValue<float>({2, 2}, {1, 3, 2, 6}), TensorValue<float>({2}, {1, 10}),
                  TensorValue<float>({2}, {0, 1})});
  ASSERT_EQ(y.size(), 3u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{-1, 11, -1, 11}));
  EXPECT_THAT(Dims(y[1]), ElementsAre(2, 1));
  EXPECT_THAT(Elements<float>(y[1]), ElementsAre(2, 4));
  EXPECT_THAT(Elements<float>(y[2]), ElementsAre(1, 0.5f));
}

TEST(LayerNormalizationTest, AxisZeroNormalizesEverything) {
  auto y = RunNn("Y, Mean = LayerNormalization <axis = 0, epsilon = 0.0> (X, Scale)", 17,
                 {TensorValue<double>({2, 2}, {0, 2, 4, 6}), TensorValue<double>({}, {1})});
  ASSERT_EQ(y.size(), 2u);
  const double s = std::sqrt(5.0);
  EXPECT_THAT(Elements<double>(y[0]),
              FloatsNear(std::vector<double>{-3 / s, -1 / s, 1 / s, 3 / s}));
  EXPECT_THAT(Dims(y[1]), ElementsAre(1, 1));
  EXPECT_EQ(y[1].tensor().dtype(), DataType::kFloat);
}

TEST(LayerNormalizationTest, BadAxisAndScaleAreErrors) {
  Value x = TensorValue<float>({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(RunNnStatus("Y = LayerNormalization <axis = 2> (X, Scale)", 17,
                        {x, TensorValue<float>({2}, {1, 1})})
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(
      RunNnStatus("Y = LayerNormalization(X, Scale)", 17, {x, TensorValue<float>({3}, {1, 1, 1})})
          .code(),
      StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
