// Tests of PRelu (its slope shapes, old and new) and SwiGLU.
#include "runtime/ep/ref/kernels/math/activation_extra.h"

#include <cmath>
#include <vector>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

class ActivationExtraTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(ActivationExtraTest, PReluBroadcastsTheSlope) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = PRelu(X, S)", 16,
                                         {TensorValue<float>({2, 2}, {-1, 2, -3, 4}),
                                          TensorValue<float>({2}, {0.5f, 0.25f})}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(-0.5f, 2, -1.5f, 4));
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = PRelu(X, S)", 16,
              {TensorValue<float>({2}, {-1, 2}), TensorValue<float>({2, 2}, {1, 1, 1, 1})}),
      kInvalidArgument);
}

TEST_F(ActivationExtraTest, LegacyPReluSlopes) {
  Value x = TensorValue<float>({1, 2, 2}, {-1, 2, -3, -4});
  for (int opset : {1, 6}) {
    ASSERT_OK_AND_ASSIGN(auto one, RunNode(registry_, "Y = PRelu(X, S)", opset,
                                           {x, TensorValue<float>({1}, {0.5f})}));
    EXPECT_THAT(ValuesOf<float>(one[0]), ElementsAre(-0.5f, 2, -1.5f, -2));
    // One value per channel (dim 1 of X).
    ASSERT_OK_AND_ASSIGN(auto channel, RunNode(registry_, "Y = PRelu(X, S)", opset,
                                               {x, TensorValue<float>({2}, {0.5f, 0.25f})}));
    EXPECT_THAT(ValuesOf<float>(channel[0]), ElementsAre(-0.5f, 2, -0.75f, -1));
    ASSERT_OK_AND_ASSIGN(auto same, RunNode(registry_, "Y = PRelu(X, S)", opset,
                                            {x, TensorValue<float>({1, 2, 2}, {1, 1, 2, 0})}));
    EXPECT_THAT(ValuesOf<float>(same[0]), ElementsAre(-1, 2, -6, 0));
    // A slope that broadcasts from 7 on but fits none of the three legacy forms.
    EXPECT_ERROR_CODE(
        RunNode(registry_, "Y = PRelu(X, S)", opset, {x, TensorValue<float>({2, 1}, {1, 2})}),
        kInvalidArgument);
  }
}

TEST_F(ActivationExtraTest, SwiGLUGatesTheValueWithSwish) {
  std::vector<Value> in = {TensorValue<float>({2}, {1, -1}), TensorValue<float>({2}, {2, 3})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = SwiGLU(A, B)", 27, in), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(registry_, "Y = SwiGLU(A, B)", 28, in));
  EXPECT_THAT(ValuesOf<float>(y[0]), ElementsAre(::testing::FloatNear(1.4621172f, 1e-6f),
                                                 ::testing::FloatNear(-0.8068243f, 1e-6f)));
  ASSERT_OK_AND_ASSIGN(auto a, RunNode(registry_, "Y = SwiGLU <alpha = 0.0> (A, B)", 28, in));
  EXPECT_THAT(ValuesOf<float>(a[0]), ElementsAre(1, -1.5f));
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, "Y = SwiGLU(A, B)", 28,
                                       {HalfValue({1}, {0}), HalfValue({1}, {5})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(0));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = SwiGLU(A, B)", 28,
                            {TensorValue<float>({2}, {1, 2}), TensorValue<float>({1}, {1})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
