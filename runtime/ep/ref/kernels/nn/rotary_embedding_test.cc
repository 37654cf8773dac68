// Tests of RotaryEmbedding: half-split and interleaved pairs, partial rotation, position_ids
// against per-token caches, 3-D input with num_heads, and rejected shapes and positions.
#include "runtime/ep/ref/kernels/nn/rotary_embedding.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

// A rotation by 90 degrees: cos 0, sin 1 maps (x1, x2) to (-x2, x1).
Value Cos(Shape s) { return TensorValue<float>(s, std::vector<float>(s.NumElements(), 0)); }
Value Sin(Shape s) { return TensorValue<float>(s, std::vector<float>(s.NumElements(), 1)); }

TEST(RotaryEmbeddingTest, HalvesAndInterleaved) {
  Value x = TensorValue<float>({1, 1, 1, 4}, {1, 2, 3, 4});
  auto y = RunNn("Y = RotaryEmbedding(X, C, S)", 23, {x, Cos({1, 1, 2}), Sin({1, 1, 2})});
  ASSERT_EQ(y.size(), 1u);
  // Pairs (1, 3) and (2, 4).
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(-3, -4, 1, 2));
  auto i = RunNn("Y = RotaryEmbedding <interleaved = 1> (X, C, S)", 23,
                 {x, Cos({1, 1, 2}), Sin({1, 1, 2})});
  ASSERT_EQ(i.size(), 1u);
  // Pairs (1, 2) and (3, 4).
  EXPECT_THAT(Elements<float>(i[0]), ElementsAre(-2, 1, -4, 3));
}

TEST(RotaryEmbeddingTest, PartialRotationWithPositionIds) {
  // Position 0 has the identity rotation, position 1 the 90-degree one.
  Value x = TensorValue<float>({1, 2, 4}, {1, 2, 3, 4, 1, 2, 3, 4});
  Value cos = TensorValue<float>({2, 1}, {1, 0});
  Value sin = TensorValue<float>({2, 1}, {0, 1});
  auto y = RunNn("Y = RotaryEmbedding <num_heads = 2, rotary_embedding_dim = 2> (X, C, S, P)", 23,
                 {x, cos, sin, TensorValue<int64_t>({1, 2}, {0, 1})});
  ASSERT_EQ(y.size(), 1u);
  // Heads of size 2, both fully covered by rotary dim 2.
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(1, 2, 3, 4, -2, 1, -4, 3));
}

TEST(RotaryEmbeddingTest, RejectsBadInputs) {
  Value x = TensorValue<float>({1, 1, 1, 4}, {1, 2, 3, 4});
  // Cache width not rotary_dim / 2.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = RotaryEmbedding(X, C, S)", 23, {x, Cos({1, 1, 1}), Sin({1, 1, 1})}),
      kInvalidArgument);
  // A position beyond the cache.
  EXPECT_ERROR_CODE(RunNnStatus("Y = RotaryEmbedding(X, C, S, P)", 23,
                                {x, Cos({1, 2}), Sin({1, 2}), TensorValue<int64_t>({1, 1}, {1})}),
                    kInvalidArgument);
  // 3-D input without num_heads, odd rotary dim, rotary dim beyond the head.
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = RotaryEmbedding(X, C, S)", 23,
                  {TensorValue<float>({1, 1, 4}, {1, 2, 3, 4}), Cos({1, 1, 2}), Sin({1, 1, 2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = RotaryEmbedding <rotary_embedding_dim = 3> (X, C, S)", 23,
                                {x, Cos({1, 1, 2}), Sin({1, 1, 2})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y = RotaryEmbedding <rotary_embedding_dim = 8> (X, C, S)", 23,
                                {x, Cos({1, 1, 4}), Sin({1, 1, 4})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y = RotaryEmbedding(X, C, S)", 23,
                  {TensorValue<float>({4}, {1, 2, 3, 4}), Cos({1, 1, 2}), Sin({1, 1, 2})}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
