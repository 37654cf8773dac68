// Tests of Attention: softmax weighting, scale, causal and boolean masks, fully masked rows,
// 3-D inputs with grouped-query heads, the KV cache outputs, qk_matmul_output modes, softcap,
// nonpad_kv_seqlen (opset 24), the sliding window (opset 25), float16, and rejected inputs.
#include "runtime/ep/ref/kernels/nn/attention.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// One query [1, 0] against keys [1, 0] and [0, 1] with values 10 and 20: with scale 1 the
// scores are 1 and 0.
Value Q1() { return TensorValue<float>({1, 1, 1, 2}, {1, 0}); }
Value K2() { return TensorValue<float>({1, 1, 2, 2}, {1, 0, 0, 1}); }
Value V2() { return TensorValue<float>({1, 1, 2, 1}, {10, 20}); }

double Weighted(double s0, double s1) {
  const double e0 = std::exp(s0), e1 = std::exp(s1);
  return (10 * e0 + 20 * e1) / (e0 + e1);
}

TEST(AttentionTest, SoftmaxWeightsTheValues) {
  auto y = RunNn("Y = Attention <scale = 1.0> (Q, K, V)", 23, {Q1(), K2(), V2()});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(ref::Elements<float>(y[0]), FloatsNear(std::vector<double>{Weighted(1, 0)}));
  // The default scale is 1/sqrt(head_size).
  auto d = RunNn("Y = Attention(Q, K, V)", 23, {Q1(), K2(), V2()});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(ref::Elements<float>(d[0]),
              FloatsNear(std::vector<double>{Weighted(1 / std::sqrt(2.0), 0)}));
}

TEST(AttentionTest, FloatMaskIsAddedAndBoolMaskSelects) {
  auto f = RunNn("Y = Attention <scale = 1.0> (Q, K, V, M)", 23,
                 {Q1(), K2(), V2(), TensorValue<float>({2}, {0, 2})});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_THAT(ref::Elements<float>(f[0]), FloatsNear(std::vector<double>{Weighted(1, 2)}));
  auto b = RunNn("Y = Attention <scale = 1.0> (Q, K, V, M)", 23,
                 {Q1(), K2(), V2(), TensorValue<bool>({1, 2}, {false, true})});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_THAT(ref::Elements<float>(b[0]), ElementsAre(20));
  // A mask shorter than the keys leaves the missing keys out.
  auto s = RunNn("Y = Attention <scale = 1.0> (Q, K, V, M)", 23,
                 {Q1(), K2(), V2(), TensorValue<float>({1, 1}, {0})});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_THAT(ref::Elements<float>(s[0]), ElementsAre(10));
}

TEST(AttentionTest, FullyMaskedRowIsZero) {
  auto y = RunNn(
      "Y, present_key, present_value, qk = Attention <qk_matmul_output_mode = 3> (Q, K, V, M)", 23,
      {Q1(), K2(), V2(), TensorValue<bool>({1, 2}, {false, false})});
  ASSERT_EQ(y.size(), 4u);
  EXPECT_THAT(ref::Elements<float>(y[0]), ElementsAre(0));
  EXPECT_THAT(ref::Elements<float>(y[3]), ElementsAre(0, 0));
  EXPECT_THAT(Dims(y[1]), ElementsAre(1, 1, 2, 2));
}

TEST(AttentionTest, CausalMaskHidesLaterKeys) {
  Value q = TensorValue<float>({1, 1, 2, 1}, {1, 1});
  Value v = TensorValue<float>({1, 1, 2, 1}, {1, 3});
  auto y = RunNn("Y = Attention <is_causal = 1, scale = 1.0> (Q, K, V)", 23, {q, q, v});
  ASSERT_EQ(y.size(), 1u);
  // Row 0 sees key 0 only; row 1 sees both with equal scores.
  EXPECT_THAT(ref::Elements<float>(y[0]), FloatsNear(std::vector<double>{1, 2}));
}

TEST(AttentionTest, QkMatmulOutputModes) {
  const std::string node =
      "Y, pk, pv, qk = Attention <scale = 1.0, softcap = 0.5, qk_matmul_output_mode = ";
  Value mask = TensorValue<float>({2}, {0, 1});
  const double capped = 0.5 * std::tanh(1 / 0.5);
  auto m0 = RunNn(node + "0> (Q, K, V, M)", 23, {Q1(), K2(), V2(), mask});
  ASSERT_EQ(m0.size(), 4u);
  EXPECT_THAT(ref::Elements<float>(m0[3]), FloatsNear(std::vector<double>{1, 0}));
  auto m1 = RunNn(node + "1> (Q, K, V, M)", 23, {Q1(), K2(), V2(), mask});
  ASSERT_EQ(m1.size(), 4u);
  EXPECT_THAT(ref::Elements<float>(m1[3]), FloatsNear(std::vector<double>{capped, 0}));
  auto m2 = RunNn(node + "2> (Q, K, V, M)", 23, {Q1(), K2(), V2(), mask});
  ASSERT_EQ(m2.size(), 4u);
  EXPECT_THAT(ref::Elements<float>(m2[3]), FloatsNear(std::vector<double>{capped, 1}));
  EXPECT_THAT(ref::Elements<float>(m2[0]), FloatsNear(std::vector<double>{Weighted(capped, 1)}));
}

TEST(AttentionTest, ThreeDGroupedQueryHeadsAndCache) {
  // Two query heads share one KV head; one past key/value plus one new one.
  Value q = TensorValue<float>({1, 1, 4}, {1, 0, 0, 1});
  Value k = TensorValue<float>({1, 1, 2}, {0, 1});
  Value v = TensorValue<float>({1, 1, 1}, {20});
  Value past_k = TensorValue<float>({1, 1, 1, 2}, {1, 0});
  Value past_v = TensorValue<float>({1, 1, 1, 1}, {10});
  auto y = RunNn(
      "Y, present_key, present_value = Attention <q_num_heads = 2, kv_num_heads = 1, scale = 1.0> "
      "(Q, K, V, , past_key, past_value)",
      23, {q, k, v, Value(), past_k, past_v});
  ASSERT_EQ(y.size(), 3u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 1, 2));
  EXPECT_THAT(ref::Elements<float>(y[0]),
              FloatsNear(std::vector<double>{Weighted(1, 0), Weighted(0, 1)}));
  EXPECT_THAT(Dims(y[1]), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT(ref::Elements<float>(y[1]), ElementsAre(1, 0, 0, 1));
  EXPECT_THAT(ref::Elements<float>(y[2]), ElementsAre(10, 20));
}

TEST(AttentionTest, NonpadKvSeqlenIgnoresPadding) {
  auto y = RunNn("Y = Attention <scale = 1.0> (Q, K, V, , , , N)", 24,
                 {Q1(), K2(), V2(), Value(), Value(), Value(), TensorValue<int64_t>({1}, {1})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ref::Elements<float>(y[0]), ElementsAre(10));
}

TEST(AttentionTest, SlidingWindow) {
  // Three positions, each attending itself and the previous one only.
  Value q = TensorValue<float>({1, 1, 3, 1}, {0, 0, 0});
  Value v = TensorValue<float>({1, 1, 3, 1}, {1, 2, 4});
  auto y =
      RunNn("Y = Attention <left_window_size = 1, right_window_size = 0> (Q, K, V)", 25, {q, q, v});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_THAT(ref::Elements<float>(y[0]), FloatsNear(std::vector<double>{1, 1.5, 3}));
}

TEST(AttentionTest, Float16) {
  auto y = RunNn("Y = Attention <scale = 1.0> (Q, K, V)", 23,
                 {HalfValue({1, 1, 1, 2}, {1, 0}), HalfValue({1, 1, 2, 2}, {1, 0, 0, 1}),
                  HalfValue({1, 1, 2, 1}, {10, 20})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_NEAR(HalfValuesOf<Float16>(y[0])[0], Weighted(1, 0), 0.02);
}

TEST(AttentionTest, RejectsBadInputs) {
  // 3-D inputs need the head counts.
  Value q3 = TensorValue<float>({1, 1, 2}, {1, 0});
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention(Q, K, V)", 23, {q3, q3, q3}), kInvalidArgument);
  // Hidden size not a multiple of the heads.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = Attention <q_num_heads = 3, kv_num_heads = 1> (Q, K, V)", 23, {q3, q3, q3}),
      kInvalidArgument);
  // Mixed ranks.
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention(Q, K, V)", 23, {Q1(), q3, V2()}), kInvalidArgument);
  // A mask that does not broadcast, or is longer than the keys.
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention(Q, K, V, M)", 23,
                                {Q1(), K2(), V2(), TensorValue<float>({3, 2}, {0, 0, 0, 0, 0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention(Q, K, V, M)", 23,
                                {Q1(), K2(), V2(), TensorValue<float>({3}, {0, 0, 0})}),
                    kInvalidArgument);
  // past_key without past_value.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = Attention(Q, K, V, , P)", 23,
                  {Q1(), K2(), V2(), Value(), TensorValue<float>({1, 1, 1, 2}, {1, 1})}),
      kInvalidArgument);
  // nonpad_kv_seqlen beyond the keys.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = Attention(Q, K, V, , , , N)", 24,
                  {Q1(), K2(), V2(), Value(), Value(), Value(), TensorValue<int64_t>({1}, {3})}),
      kInvalidArgument);
  // Query heads not a multiple of the KV heads.
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention(Q, K, V)", 23,
                                {TensorValue<float>({1, 3, 1, 1}, {1, 1, 1}),
                                 TensorValue<float>({1, 2, 1, 1}, {1, 1}),
                                 TensorValue<float>({1, 2, 1, 1}, {1, 1})}),
                    kInvalidArgument);
  // Attributes out of range.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = Attention <qk_matmul_output_mode = 4> (Q, K, V)", 23, {Q1(), K2(), V2()}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = Attention <softmax_precision = 7> (Q, K, V)", 23, {Q1(), K2(), V2()}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention <softcap = -1.0> (Q, K, V)", 23, {Q1(), K2(), V2()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = Attention <left_window_size = -2> (Q, K, V)", 25, {Q1(), K2(), V2()}),
      kInvalidArgument);
  // Opset 25 refuses head counts with 4-D inputs.
  EXPECT_ERROR_CODE(RunNnStatus("Y = Attention <q_num_heads = 1, kv_num_heads = 1> (Q, K, V)", 25,
                                {Q1(), K2(), V2()}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
