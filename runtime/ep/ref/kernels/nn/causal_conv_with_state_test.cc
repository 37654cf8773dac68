// Tests of CausalConvWithState: the causal window over past_state (or zeros), bias, the fused
// SiLU, present_state, kernel size 1, and rejected shapes and activations.
#include "runtime/ep/ref/kernels/nn/causal_conv_with_state.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/nn/nn_test_helpers.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

Value X() { return TensorValue<float>({1, 1, 3}, {1, 2, 3}); }
Value W() { return TensorValue<float>({1, 1, 2}, {1, 2}); }

TEST(CausalConvWithStateTest, PastStateAndBias) {
  // Padded [5, 1, 2, 3]: 5 + 2, 1 + 4, 2 + 6, plus the bias 1.
  auto y = RunNn("Y, S = CausalConvWithState(X, W, B, P)", 27,
                 {X(), W(), TensorValue<float>({1}, {1}), TensorValue<float>({1, 1, 1}, {5})});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(8, 6, 9));
  EXPECT_THAT(Dims(y[1]), ElementsAre(1, 1, 1));
  EXPECT_THAT(Elements<float>(y[1]), ElementsAre(3));
}

TEST(CausalConvWithStateTest, ZeroHistoryAndSilu) {
  auto y = RunNn("Y, S = CausalConvWithState <activation = \"silu\"> (X, W)", 27, {X(), W()});
  ASSERT_EQ(y.size(), 2u);
  auto silu = [](double v) { return v / (1 + std::exp(-v)); };
  EXPECT_THAT(Elements<float>(y[0]), FloatsNear(std::vector<double>{silu(2), silu(5), silu(8)}));
}

TEST(CausalConvWithStateTest, KernelSizeOneHasEmptyState) {
  auto y = RunNn("Y, S = CausalConvWithState(X, W)", 27, {X(), TensorValue<float>({1, 1, 1}, {2})});
  ASSERT_EQ(y.size(), 2u);
  EXPECT_THAT(Elements<float>(y[0]), ElementsAre(2, 4, 6));
  EXPECT_THAT(Dims(y[1]), ElementsAre(1, 1, 0));
}

TEST(CausalConvWithStateTest, RejectsBadInputs) {
  EXPECT_ERROR_CODE(RunNnStatus("Y, S = CausalConvWithState(X, W)", 27,
                                {X(), TensorValue<float>({1, 2, 1}, {1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y, S = CausalConvWithState(X, W)", 27,
                                {TensorValue<float>({3}, {1, 2, 3}), W()}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y, S = CausalConvWithState(X, W, , P)", 27,
                                {X(), W(), Value(), TensorValue<float>({1, 1, 2}, {0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNnStatus("Y, S = CausalConvWithState(X, W, B)", 27,
                                {X(), W(), TensorValue<float>({2}, {0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNnStatus("Y, S = CausalConvWithState <activation = \"relu\"> (X, W)", 27, {X(), W()}),
      kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
