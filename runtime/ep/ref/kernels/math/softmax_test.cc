// Tests of Softmax, LogSoftmax and Hardmax: the coerced-2-D semantics before opset 13 and the
// single-axis semantics from 13.
#include "runtime/ep/ref/kernels/math/softmax.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::Pointwise;

class SoftmaxTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  // [1, 2, 2]: softmax over the last axis differs from softmax over the flattened [2, 2].
  Value x_ = TensorValue<float>({1, 2, 2}, {0, 1, 2, 3});
};

TEST_F(SoftmaxTest, Opset13NormalisesTheLastAxis) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Softmax(X)", 13, {x_}));
  const float a = 1 / (1 + std::exp(1.0f)), b = 1 - a;
  EXPECT_THAT(ValuesOf<float>(out[0]), Pointwise(FloatNear(1e-6f), std::vector<float>{a, b, a, b}));
}

TEST_F(SoftmaxTest, Opset11CoercesTo2DAtAxis) {
  // Default axis 1: all four elements form one row.
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Softmax(X)", 11, {x_}));
  double sum = 0;
  for (int i = 0; i < 4; ++i) sum += std::exp(i);
  std::vector<float> want;
  for (int i = 0; i < 4; ++i) want.push_back(static_cast<float>(std::exp(i) / sum));
  EXPECT_THAT(ValuesOf<float>(out[0]), Pointwise(FloatNear(1e-6f), want));
  // axis = 2 in the coerced form equals the single-axis form for the last axis.
  ASSERT_OK_AND_ASSIGN(auto last, RunNode(registry_, "Y = Softmax <axis = 2> (X)", 1, {x_}));
  ASSERT_OK_AND_ASSIGN(auto v13, RunNode(registry_, "Y = Softmax <axis = 2> (X)", 13, {x_}));
  EXPECT_EQ(ValuesOf<float>(last[0]), ValuesOf<float>(v13[0]));
}

TEST_F(SoftmaxTest, Opset13MiddleAxis) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Softmax <axis = -2> (X)", 13, {x_}));
  const float a = 1 / (1 + std::exp(2.0f)), b = 1 - a;
  EXPECT_THAT(ValuesOf<float>(out[0]), Pointwise(FloatNear(1e-6f), std::vector<float>{a, a, b, b}));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Softmax <axis = 3> (X)", 13, {x_}), kInvalidArgument);
}

TEST_F(SoftmaxTest, LargeInputsDoNotOverflow) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Softmax(X)", 13,
                                         {TensorValue<float>({3}, {10000, 10001, 10002})}));
  EXPECT_THAT(
      ValuesOf<float>(out[0]),
      Pointwise(FloatNear(1e-6f), std::vector<float>{0.09003057f, 0.24472847f, 0.66524096f}));
  ASSERT_OK_AND_ASSIGN(auto log, RunNode(registry_, "Y = LogSoftmax(X)", 13,
                                         {TensorValue<double>({2}, {1000, 1000})}));
  EXPECT_THAT(ValuesOf<double>(log[0]),
              Pointwise(DoubleNear(1e-12), std::vector<double>{-std::log(2.0), -std::log(2.0)}));
}

TEST_F(SoftmaxTest, HardmaxMarksTheFirstMaximum) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Hardmax(X)", 13,
                                         {TensorValue<float>({2, 3}, {1, 3, 3, -1, -2, -3})}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(0, 1, 0, 1, 0, 0));
}

TEST_F(SoftmaxTest, Float16AndBFloat16) {
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, "Y = Softmax(X)", 13, {HalfValue({2}, {0, 0})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]), ElementsAre(0.5f, 0.5f));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Softmax(X)", 12, {BFloat16Value({2}, {0, 0})}),
                    kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto b,
                       RunNode(registry_, "Y = Softmax(X)", 13, {BFloat16Value({2}, {0, 0})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(b[0]), ElementsAre(0.5f, 0.5f));
}

TEST_F(SoftmaxTest, EmptyAxis) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Softmax(X)", 13, {TensorValue<float>({2, 0}, {})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 0));
}

}  // namespace
}  // namespace onnxgate::ref
