// Tests of LRN: the channel window (asymmetric for even sizes) and the normalization formula.
#include "runtime/ep/ref/kernels/nn/lrn.h"

#include <cmath>

#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

TEST(LrnTest, OddWindowIsCentred) {
  // size 3, alpha 3 (alpha / size = 1), beta 1, bias 1: y = x / (1 + sum of neighbouring x^2).
  auto y = RunNn("Y = LRN <size = 3, alpha = 3.0, beta = 1.0, bias = 1.0> (X)", 13,
                 {TensorValue<float>({1, 3, 1}, {1, 2, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{1.0 / 6, 2.0 / 15, 3.0 / 14}));
}

TEST(LrnTest, EvenWindowLooksOneChannelFurtherAhead) {
  // size 2: channel c sums channels c and c + 1.
  auto y = RunNn("Y = LRN <size = 2, alpha = 2.0, beta = 1.0, bias = 1.0> (X)", 13,
                 {TensorValue<float>({1, 3, 1}, {1, 2, 3})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{1.0 / 6, 2.0 / 14, 3.0 / 10}));
}

TEST(LrnTest, DefaultsAndSizeValidation) {
  auto y = RunNn("Y = LRN <size = 1> (X)", 1, {TensorValue<double>({1, 1}, {2})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<double>(y[0]),
              FloatsNear(std::vector<double>{2 / std::pow(1 + 1e-4 * 4, 0.75)}));
  EXPECT_EQ(RunNnStatus("Y = LRN <size = 0> (X)", 13, {TensorValue<float>({1, 1}, {2})}).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
