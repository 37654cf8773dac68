// Tests of BatchNormalization: inference per channel and (version 7) per activation, training
// mode with running statistics, mixed types from version 15, and the version rules.
#include "runtime/ep/ref/kernels/nn/batch_normalization.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

std::vector<Value> Inputs(Value x) {
  return {std::move(x), TensorValue<float>({2}, {1, 2}), TensorValue<float>({2}, {0, 1}),
          TensorValue<float>({2}, {1, 2}), TensorValue<float>({2}, {4, 0.25f})};
}

TEST(BatchNormalizationTest, InferencePerChannel) {
  // Channel 0: (x - 1) / 2; channel 1: (x - 2) / 0.5 * 2 + 1.
  auto y = RunNn("Y = BatchNormalization <epsilon = 0.0> (X, scale, B, mean, var)", 15,
                 Inputs(TensorValue<float>({1, 2, 1, 2}, {3, 5, 2, 3})));
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 2, 1, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(1, 2, 1, 5));
}

TEST(BatchNormalizationTest, RankTwoInputAndEpsilon) {
  auto y = RunNn("Y = BatchNormalization(X, scale, B, mean, var)", 9,
                 Inputs(TensorValue<float>({1, 2}, {3, 3})));
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{
                                         2 / std::sqrt(4 + 1e-5), 2 / std::sqrt(0.25 + 1e-5) + 1}));
}

TEST(BatchNormalizationTest, PerActivationStatisticsInVersion7) {
  // spatial = 0: one mean and variance per (channel, position).
  auto y = RunNn("Y = BatchNormalization <spatial = 0, epsilon = 0.0> (X, scale, B, mean, var)", 7,
                 {TensorValue<float>({1, 1, 2}, {5, 5}), TensorValue<float>({1, 2}, {1, 1}),
                  TensorValue<float>({1, 2}, {0, 0}), TensorValue<float>({1, 2}, {1, 3}),
                  TensorValue<float>({1, 2}, {4, 1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(2, 2));
}

TEST(BatchNormalizationTest, TrainingModeUsesBatchStatistics) {
  // One channel, values 1..4: mean 2.5, population variance 1.25.
  auto y = RunNn(
      "Y, running_mean, running_var = BatchNormalization <training_mode = 1, epsilon = 0.0, "
      "momentum = 0.5> (X, scale, B, mean, var)",
      15,
      {TensorValue<float>({2, 1, 2}, {1, 2, 3, 4}), TensorValue<float>({1}, {1}),
       TensorValue<float>({1}, {0}), TensorValue<float>({1}, {0.5f}),
       TensorValue<float>({1}, {0.75f})});
  ASSERT_EQ(y.size(), 3u);
  const double s = std::sqrt(1.25);
  EXPECT_THAT(Elements<float>(y[0]),
              FloatsNear(std::vector<double>{-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s}));
  EXPECT_THAT(Elements<float>(y[1]), ElementsAre(1.5f));  // 0.5 * 0.5 + 2.5 * 0.5
  EXPECT_THAT(Elements<float>(y[2]), ElementsAre(1.0f));  // 0.75 * 0.5 + 1.25 * 0.5
}

TEST(BatchNormalizationTest, MixedTypesFromVersion15) {
  auto h = [](float f) { return Float16::FromFloat(f); };
  auto y = RunNn("Y = BatchNormalization <epsilon = 0.0> (X, scale, B, mean, var)", 15,
                 {TensorValue<Float16>({1, 1, 1}, {h(5)}), TensorValue<float>({1}, {2}),
                  TensorValue<float>({1}, {1}), TensorValue<double>({1}, {1}),
                  TensorValue<double>({1}, {16})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].tensor().dtype(), DataType::kFloat16);
  EXPECT_EQ(y[0].tensor().data<Float16>()[0].ToFloat(), 3.0f);
}

TEST(BatchNormalizationTest, VersionRules) {
  Value x = TensorValue<float>({1, 2}, {1, 1});
  // Training outputs before version 14 are not implemented.
  EXPECT_EQ(
      RunNnStatus("Y, m, v, sm, sv = BatchNormalization(X, scale, B, mean, var)", 9, Inputs(x))
          .code(),
      StatusCode::kUnimplemented);
  // Running statistics are only defined in training mode.
  EXPECT_EQ(
      RunNnStatus("Y, m, v = BatchNormalization(X, scale, B, mean, var)", 15, Inputs(x)).code(),
      StatusCode::kInvalidArgument);
  // bfloat16 arrives with version 14.
  auto b = [](float f) { return BFloat16::FromFloat(f); };
  std::vector<Value> bf = {TensorValue<BFloat16>({1, 1}, {b(1)}),
                           TensorValue<BFloat16>({1}, {b(1)}), TensorValue<BFloat16>({1}, {b(0)}),
                           TensorValue<BFloat16>({1}, {b(0)}), TensorValue<BFloat16>({1}, {b(1)})};
  EXPECT_EQ(RunNnStatus("Y = BatchNormalization(X, scale, B, mean, var)", 9, bf).code(),
            StatusCode::kUnimplemented);
  EXPECT_TRUE(RunNnStatus("Y = BatchNormalization(X, scale, B, mean, var)", 14, bf).ok());
}

TEST(BatchNormalizationTest, ParameterShapeMismatchIsAnError) {
  EXPECT_EQ(RunNnStatus("Y = BatchNormalization(X, scale, B, mean, var)", 15,
                        Inputs(TensorValue<float>({1, 3}, {1, 2, 3})))
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(BatchNormalizationTest, Version1IgnoresConsumedInputs) {
  auto y = RunNn(
      "Y = BatchNormalization <consumed_inputs = [0, 0, 0, 1, 1], is_test = 1, epsilon = 0.0> "
      "(X, scale, B, mean, var)",
      1, Inputs(TensorValue<float>({1, 2}, {3, 2.5f})));
  ASSERT_EQ(y.size(), 1u);
  // Channel 0: (3 - 1) / 2 * 1 + 0; channel 1: (2.5 - 2) / 0.5 * 2 + 1.
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{1, 3}));
}

}  // namespace
}  // namespace onnxgate::ref
