// Tests of Adagrad, Adam and Momentum: one update worked by hand, the T == 0 special cases, two
// tensors optimized by one node, and malformed input lists.
#include "runtime/ep/ref/kernels/training/training_optimizers.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

const KernelRegistry& TrainingRegistry() {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return *registry;
}

StatusOr<std::vector<Value>> RunOptimizer(const std::string& node,
                                          const std::vector<Value>& inputs) {
  return RunNode(TrainingRegistry(), node, 1, inputs);
}

Value R(float r) { return TensorValue<float>({}, {r}); }
Value T(int64_t t) { return TensorValue<int64_t>({}, {t}); }
Value F(std::vector<float> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return TensorValue<float>({n}, v);
}

TEST(AdagradTest, OneUpdateWithDecayAndNorm) {
  // r = 0.1 / (1 + 2 * 0.5) = 0.05; g_reg = 0.5 * 1 + 2 = 2.5; h = 1 + 6.25 = 7.25.
  auto out = RunOptimizer(
      "X_new, H_new = ai.onnx.preview.training.Adagrad <decay_factor = 0.5, epsilon = 0.01, "
      "norm_coefficient = 0.5> (R, T, X, G, H)",
      {R(0.1f), T(2), F({1}), F({2}), F({1})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_THAT(Elements<float>((*out)[0]),
              FloatsNear(std::vector<double>{1 - 0.05 * 2.5 / (std::sqrt(7.25) + 0.01)}));
  EXPECT_THAT(Elements<float>((*out)[1]), FloatsNear(std::vector<double>{7.25}));
}

TEST(AdamTest, BiasCorrectionOnlyAfterTheFirstUpdate) {
  const char* node =
      "X_new, V_new, H_new = ai.onnx.preview.training.Adam <alpha = 0.5, beta = 0.75, "
      "epsilon = 0.0, norm_coefficient_post = 0.1> (R, T, X, G, V, H)";
  // g = 2: v = 0.5 * 1 + 0.5 * 2 = 1.5; h = 0.75 * 1 + 0.25 * 4 = 1.75.
  for (int64_t t : {0, 2}) {
    auto out = RunOptimizer(node, {R(0.1f), T(t), F({3}), F({2}), F({1}), F({1})});
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    const double r = t == 0 ? 0.1 : 0.1 * std::sqrt(1 - std::pow(0.75, 2)) / (1 - std::pow(0.5, 2));
    EXPECT_THAT(Elements<float>((*out)[0]),
                FloatsNear(std::vector<double>{0.9 * (3 - r * 1.5 / std::sqrt(1.75))}))
        << "T = " << t;
    EXPECT_THAT(Elements<float>((*out)[1]), FloatsNear(std::vector<double>{1.5}));
    EXPECT_THAT(Elements<float>((*out)[2]), FloatsNear(std::vector<double>{1.75}));
  }
}

TEST(MomentumTest, StandardAndNesterovOnTwoTensors) {
  // Tensor 0: x 1, g 2, v 1; tensor 1: x 10, g -1, v 0. T = 1, alpha 0.5, beta 0.25.
  const std::vector<Value> in = {R(0.1f), T(1), F({1}), F({10}), F({2}), F({-1}), F({1}), F({0})};
  auto standard = RunOptimizer(
      "X1, X2, V1, V2 = ai.onnx.preview.training.Momentum <alpha = 0.5, beta = 0.25, "
      "norm_coefficient = 0.0, mode = \"standard\"> (R, T, A, B, GA, GB, VA, VB)",
      in);
  ASSERT_TRUE(standard.ok()) << standard.status().ToString();
  // v1 = 0.5 + 0.5 = 1, v2 = -0.25.
  EXPECT_THAT(Elements<float>((*standard)[2]), FloatsNear(std::vector<double>{1.0}));
  EXPECT_THAT(Elements<float>((*standard)[3]), FloatsNear(std::vector<double>{-0.25}));
  EXPECT_THAT(Elements<float>((*standard)[0]), FloatsNear(std::vector<double>{0.9}));
  EXPECT_THAT(Elements<float>((*standard)[1]), FloatsNear(std::vector<double>{10.025}));
  auto nesterov = RunOptimizer(
      "X1, X2, V1, V2 = ai.onnx.preview.training.Momentum <alpha = 0.5, beta = 0.25, "
      "norm_coefficient = 0.0, mode = \"nesterov\"> (R, T, A, B, GA, GB, VA, VB)",
      in);
  ASSERT_TRUE(nesterov.ok()) << nesterov.status().ToString();
  EXPECT_THAT(Elements<float>((*nesterov)[0]),
              FloatsNear(std::vector<double>{1 - 0.1 * (2 + 0.5 * 1)}));
  EXPECT_THAT(Elements<float>((*nesterov)[1]),
              FloatsNear(std::vector<double>{10 - 0.1 * (-1 + 0.5 * -0.25)}));
}

TEST(MomentumTest, FirstUpdateTakesTheWholeGradient) {
  auto out = RunOptimizer(
      "X_new, V_new = ai.onnx.preview.training.Momentum <alpha = 0.5, beta = 0.25, "
      "norm_coefficient = 0.0, mode = \"standard\"> (R, T, X, G, V)",
      {R(1.0f), T(0), F({0}), F({2}), F({0})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_THAT(Elements<float>((*out)[1]), FloatsNear(std::vector<double>{2.0}));
}

TEST(OptimizerTest, RejectsBadModesShapesAndListLengths) {
  auto bad_mode = RunOptimizer(
      "X_new, V_new = ai.onnx.preview.training.Momentum <alpha = 0.5, beta = 0.25, "
      "norm_coefficient = 0.0, mode = \"sideways\"> (R, T, X, G, V)",
      {R(1.0f), T(0), F({0}), F({2}), F({0})});
  EXPECT_FALSE(bad_mode.ok());
  EXPECT_THAT(bad_mode.status().message(), ::testing::HasSubstr("sideways"));
  auto bad_shape = RunOptimizer("X_new, H_new = ai.onnx.preview.training.Adagrad (R, T, X, G, H)",
                                {R(0.1f), T(1), F({1, 2}), F({2}), F({1, 1})});
  EXPECT_FALSE(bad_shape.ok());
  EXPECT_THAT(bad_shape.status().message(), ::testing::HasSubstr("G of tensor 0 has shape"));
  auto bad_count = RunOptimizer("X_new, H_new = ai.onnx.preview.training.Adagrad (R, T, X, G)",
                                {R(0.1f), T(1), F({1}), F({2})});
  EXPECT_FALSE(bad_count.ok());
}

}  // namespace
}  // namespace onnxgate::ref
