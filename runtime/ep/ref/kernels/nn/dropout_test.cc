// Tests of Dropout: identity at inference in every version, the mask's type per version,
// training mode with ratio 0, kept-element scaling with a seed, the seeded draws of ONNX's
// reference, the FLOAT8 types of version 22, and rejected ratios.
#include "runtime/ep/ref/kernels/nn/dropout.h"

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

Value X() { return TensorValue<float>({2, 2}, {1, -2, 3, 4}); }
Value Bool(bool b) { return TensorValue<bool>({}, {b}); }
Value Ratio(float r) { return TensorValue<float>({}, {r}); }

TEST(DropoutTest, InferenceIsTheIdentityWithAnAllTrueMask) {
  auto y = RunNn("Y, M = Dropout <ratio = 0.9> (X)", 10, {X()});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(Elements<float>(y[0]), (std::vector<float>{1, -2, 3, 4}));
  EXPECT_EQ(Elements<bool>(y[1]), (std::vector<bool>{true, true, true, true}));
  auto y13 = RunNn("Y, M = Dropout (X, R, T)", 13, {X(), Ratio(0.5f), Bool(false)});
  ASSERT_EQ(y13.size(), 2u);
  EXPECT_EQ(Elements<float>(y13[0]), (std::vector<float>{1, -2, 3, 4}));
}

TEST(DropoutTest, MaskHasTheDataTypeBeforeVersion10) {
  auto y = RunNn("Y, M = Dropout (X)", 7, {X()});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(Elements<float>(y[1]), (std::vector<float>{1, 1, 1, 1}));
}

TEST(DropoutTest, TrainingWithRatioZeroKeepsEverything) {
  auto y = RunNn("Y, M = Dropout (X, R, T)", 13, {X(), Ratio(0.0f), Bool(true)});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(Elements<float>(y[0]), (std::vector<float>{1, -2, 3, 4}));
  EXPECT_EQ(Elements<bool>(y[1]), (std::vector<bool>{true, true, true, true}));
}

TEST(DropoutTest, TrainingScalesKeptElementsAndZeroesTheRest) {
  std::vector<float> big(1000, 2.0f);
  auto y = RunNn("Y, M = Dropout <seed = 7> (X, R, T)", 13,
                 {TensorValue<float>({1000}, big), Ratio(0.75f), Bool(true)});
  ASSERT_EQ(y.size(), 2u);
  const std::vector<float> out = Elements<float>(y[0]);
  const std::vector<bool> mask = Elements<bool>(y[1]);
  int kept = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_FLOAT_EQ(out[i], mask[i] ? 8.0f : 0.0f) << i;
    kept += mask[i] ? 1 : 0;
  }
  EXPECT_GT(kept, 180);  // about 250 expected; the bounds are 5 standard deviations wide
  EXPECT_LT(kept, 320);
  // The same seed gives the same draws.
  auto again = RunNn("Y, M = Dropout <seed = 7> (X, R, T)", 13,
                     {TensorValue<float>({1000}, big), Ratio(0.75f), Bool(true)});
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(Elements<bool>(again[1]), mask);
}

TEST(DropoutTest, RejectsRatioOfOneInTraining) {
  EXPECT_EQ(RunNnStatus("Y = Dropout (X, R, T)", 13, {X(), Ratio(1.0f), Bool(true)}).code(),
            StatusCode::kInvalidArgument);
}

TEST(DropoutTest, SeededDrawsAreThoseOfOnnxsReference) {
  // numpy.random.RandomState(0).uniform(0, 1, 6) is 0.549, 0.715, 0.603, 0.545, 0.424, 0.646.
  auto y = RunNn("Y, M = Dropout <seed = 0> (X, R, T)", 13,
                 {TensorValue<float>({6}, {1, 2, 3, 4, 5, 6}), Ratio(0.5f), Bool(true)});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_EQ(Elements<bool>(y[1]), (std::vector<bool>{true, true, true, true, false, true}));
  EXPECT_EQ(Elements<float>(y[0]), (std::vector<float>{2, 4, 6, 8, 0, 12}));
}

TEST(DropoutTest, Float8FromVersion22) {
  auto f8 = [](std::vector<float> v) {
    std::vector<Float8E4M3FN> out;
    for (float f : v) out.push_back(Float8E4M3FN::FromFloat(f));
    return TensorValue<Float8E4M3FN>({static_cast<int64_t>(v.size())}, out);
  };
  auto decode = [](const Value& v) {
    std::vector<float> out;
    for (Float8E4M3FN e : Elements<Float8E4M3FN>(v)) out.push_back(e.ToFloat());
    return out;
  };
  // Inference is the identity; in training the kept values are scaled by 1 / (1 - ratio),
  // here 2, and saturate at the type's largest value, 448.
  auto inference = RunNn("Y = Dropout (X)", 22, {f8({1, -2, 300})});
  ASSERT_EQ(inference.size(), 1u);
  EXPECT_EQ(decode(inference[0]), (std::vector<float>{1, -2, 288}));
  auto training = RunNn("Y, M = Dropout <seed = 0> (X, R, T)", 22,
                        {f8({1, -2, 300, 4, 5, 6}), f8({0.5f}), Bool(true)});
  ASSERT_EQ(training.size(), 2u);
  EXPECT_EQ(decode(training[0]), (std::vector<float>{2, -4, 448, 8, 0, 12}));
  // Float8 is not a Dropout type before version 22.
  EXPECT_FALSE(RunNnStatus("Y = Dropout (X)", 13, {f8({1})}).ok());
}

}  // namespace
}  // namespace onnxgate::ref
