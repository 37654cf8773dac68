// Tests of FlexAttention without modifiers: softmax weighting with the default and an explicit
// scale, grouped query heads, float16 through the float softmax, and rejected inputs.
#include "runtime/ep/ref/kernels/nn/flex_attention.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// Query [1, 0] against keys [1, 0] and [0, 1] with values 10 and 20.
Value Q() { return TensorValue<float>({1, 1, 1, 2}, {1, 0}); }
Value K() { return TensorValue<float>({1, 1, 2, 2}, {1, 0, 0, 1}); }
Value V() { return TensorValue<float>({1, 1, 2, 1}, {10, 20}); }

double Weighted(double s0, double s1) {
  const double e0 = std::exp(s0), e1 = std::exp(s1);
  return (10 * e0 + 20 * e1) / (e0 + e1);
}

TEST(FlexAttentionTest, ScaleAndDefaultScale) {
  auto y = RunNn("Y = ai.onnx.preview.FlexAttention <scale = 1.0> (Q, K, V)", 1, {Q(), K(), V()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{Weighted(1, 0)}));
  auto d = RunNn("Y = ai.onnx.preview.FlexAttention(Q, K, V)", 1, {Q(), K(), V()});
  ASSERT_EQ(d.size(), 1u);
  // sqrt(1/sqrt(2)) is rounded to float before it scales Q and K.
  const double root = static_cast<float>(std::sqrt(static_cast<float>(1 / std::sqrt(2.0))));
  EXPECT_THAT(Elements<float>(d[0]),
              FloatsNear(std::vector<double>{Weighted(static_cast<float>(root * root), 0)}));
}

TEST(FlexAttentionTest, GroupedQueryHeads) {
  Value q = TensorValue<float>({1, 2, 1, 2}, {1, 0, 0, 1});
  auto y = RunNn("Y = ai.onnx.preview.FlexAttention <scale = 1.0> (Q, K, V)", 1, {q, K(), V()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 2, 1, 1));
  EXPECT_THAT(Elements<float>(y[0]),
              FloatsNear(std::vector<double>{Weighted(1, 0), Weighted(0, 1)}));
}

TEST(FlexAttentionTest, Float16) {
  auto y = RunNn("Y = ai.onnx.preview.FlexAttention <scale = 1.0> (Q, K, V)", 1,
                 {HalfValue({1, 1, 1, 2}, {1, 0}), HalfValue({1, 1, 2, 2}, {1, 0, 0, 1}),
                  HalfValue({1, 1, 2, 1}, {10, 20})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_NEAR(HalfValuesOf<Float16>(y[0])[0], Weighted(1, 0), 0.02);
}

TEST(FlexAttentionTest, RejectsBadInputs) {
  const std::string node = "Y = ai.onnx.preview.FlexAttention(Q, K, V)";
  EXPECT_ERROR_CODE(RunNnStatus(node, 1, {TensorValue<float>({1, 2}, {1, 0}), K(), V()}),
                    kInvalidArgument);
  // Head sizes of Q and K differ.
  EXPECT_ERROR_CODE(RunNnStatus(node, 1, {TensorValue<float>({1, 1, 1, 1}, {1}), K(), V()}),
                    kInvalidArgument);
  // Query heads not a multiple of the KV heads.
  EXPECT_ERROR_CODE(RunNnStatus(node, 1,
                                {TensorValue<float>({1, 3, 1, 2}, {1, 0, 1, 0, 1, 0}),
                                 TensorValue<float>({1, 2, 2, 2}, {1, 0, 0, 1, 1, 0, 0, 1}),
                                 TensorValue<float>({1, 2, 2, 1}, {1, 2, 3, 4})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = ai.onnx.preview.FlexAttention <softmax_precision = 6> "
                                "(Q, K, V)",
                                1, {Q(), K(), V()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = ai.onnx.preview.FlexAttention <scale = -1.0> (Q, K, V)", 1, {Q(), K(), V()}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
