// Tests of LinearAttention: the four update rules on a one-dimensional state, grouped query
// heads, past_state, and rejected inputs.
#include "runtime/ep/ref/kernels/nn/linear_attention.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// Two tokens, one head, d_k = d_v = 1: q = 1, k = 1 then 2, v = 3 then 4.
Value Q() { return TensorValue<float>({1, 2, 1}, {1, 1}); }
Value K() { return TensorValue<float>({1, 2, 1}, {1, 2}); }
Value V() { return TensorValue<float>({1, 2, 1}, {3, 4}); }
const char* kAttrs = "q_num_heads = 1, kv_num_heads = 1, scale = 1.0";

TEST(LinearAttentionTest, Linear) {
  // S = 3, then 3 + 2 * 4 = 11.
  auto y = RunNn(
      std::string("Y, S = LinearAttention <") + kAttrs + ", update_rule = \"linear\"> (Q, K, V)",
      27, {Q(), K(), V()});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(3, 11));
  EXPECT_THAT(Dims(y[1]), ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(Elements<float>(y[1]), ElementsAre(11));
}

TEST(LinearAttentionTest, GatedWithPastState) {
  // S = 1 + 3 = 4, then 0.5 * 4 + 8 = 10.
  auto y = RunNn(std::string("Y, S = LinearAttention <") + kAttrs +
                     ", update_rule = \"gated\"> (Q, K, V, P, G)",
                 27,
                 {Q(), K(), V(), TensorValue<float>({1, 1, 1, 1}, {1}),
                  TensorValue<float>({1, 2, 1}, {0, static_cast<float>(std::log(0.5))})});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{4, 10}));
}

TEST(LinearAttentionTest, DeltaAndGatedDelta) {
  // Delta: S = 1 * (3 - 0) = 3, then 3 + 0.5 * 2 * (4 - 3 * 2) = 1.
  Value beta = TensorValue<float>({1, 2, 1}, {1, 0.5f});
  auto d = RunNn(std::string("Y, S = LinearAttention <") + kAttrs +
                     ", update_rule = \"delta\"> (Q, K, V, , , B)",
                 27, {Q(), K(), V(), Value(), Value(), beta});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_THAT(Elements<float>(d[0]), FloatsNear(std::vector<double>{3, 1}));
  // Gated delta with decay 0 is the delta rule.
  auto g = RunNn(std::string("Y, S = LinearAttention <") + kAttrs + "> (Q, K, V, , G, B)", 27,
                 {Q(), K(), V(), Value(), TensorValue<float>({1, 2, 1}, {0, 0}), beta});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_THAT(Elements<float>(g[0]), FloatsNear(std::vector<double>{3, 1}));
}

TEST(LinearAttentionTest, GroupedQueryHeadsAndDefaultScale) {
  // Two query heads (q = 1 and q = 2) read one KV head's state; d_k = 1 gives scale 1.
  auto y = RunNn(
      "Y, S = LinearAttention <q_num_heads = 2, kv_num_heads = 1, update_rule = \"linear\"> "
      "(Q, K, V)",
      27, {TensorValue<float>({1, 2, 2}, {1, 2, 1, 2}), K(), V()});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_THAT(Dims(y[0]), ElementsAre(1, 2, 2));
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(3, 6, 11, 22));
}

TEST(LinearAttentionTest, RejectsBadInputs) {
  const std::string linear =
      std::string("Y, S = LinearAttention <") + kAttrs + ", update_rule = \"linear\"> ";
  // Decay with the linear rule; gated without decay; delta without beta.
  EXPECT_ERROR_CODE(RunNnStatus(linear + "(Q, K, V, , G)", 27,
                                {Q(), K(), V(), Value(), TensorValue<float>({1, 2, 1}, {0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(std::string("Y, S = LinearAttention <") + kAttrs +
                                    ", update_rule = \"gated\"> (Q, K, V)",
                                27, {Q(), K(), V()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(std::string("Y, S = LinearAttention <") + kAttrs +
                                    ", update_rule = \"delta\"> (Q, K, V)",
                                27, {Q(), K(), V()}),
                    kInvalidArgument);
  // Unknown rule, heads not a multiple, missing heads.
  EXPECT_ERROR_CODE(RunNnStatus(std::string("Y, S = LinearAttention <") + kAttrs +
                                    ", update_rule = \"fast\"> (Q, K, V)",
                                27, {Q(), K(), V()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y, S = LinearAttention <q_num_heads = 3, kv_num_heads = 2> "
                                "(Q, K, V)",
                                27, {Q(), K(), V()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y, S = LinearAttention(Q, K, V)", 27, {Q(), K(), V()}),
                    kInvalidArgument);
  // Wrong ranks and shapes.
  EXPECT_ERROR_CODE(
      RunNnStatus(linear + "(Q, K, V)", 27, {TensorValue<float>({2}, {1, 1}), K(), V()}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(linear + "(Q, K, V)", 27,
                                {Q(), TensorValue<float>({1, 2, 2}, {1, 1, 1, 1}), V()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus(linear + "(Q, K, V, P)", 27,
                                {Q(), K(), V(), TensorValue<float>({1, 1, 2, 1}, {0, 0})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
