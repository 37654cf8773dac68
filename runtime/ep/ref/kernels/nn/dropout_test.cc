// Tests of Dropout: identity at inference in every version, the mask's type per version,
// training mode with ratio 0, kept-element scaling with a seed, and rejected ratios.
#include "runtime/ep/ref/kernels/nn/dropout.h"

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref_nn {
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

}  // namespace
}  // namespace onnxgate::ref_nn
