// Tests of the one-input elementwise functions: values, NaN handling, integer forms, attributes
// and the type lists of each version.
#include "runtime/ep/ref/kernels/math/unary_math.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/math/clip.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::Pointwise;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

class UnaryMathTest : public ::testing::Test {
 protected:
  std::vector<float> RunFloat(const std::string& node, int opset, std::vector<float> x) {
    auto out =
        RunNode(registry_, node, opset, {TensorValue<float>({static_cast<int64_t>(x.size())}, x)});
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    return out.ok() ? ValuesOf<float>((*out)[0]) : std::vector<float>{};
  }
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
};

TEST_F(UnaryMathTest, ReluKeepsNaNAndZeroesNegatives) {
  std::vector<float> y = RunFloat("Y = Relu(X)", 13, {-2, 0, 3, kNaN});
  EXPECT_EQ(y[0], 0);
  EXPECT_EQ(y[1], 0);
  EXPECT_EQ(y[2], 3);
  EXPECT_TRUE(std::isnan(y[3]));
}

TEST_F(UnaryMathTest, ReluTakesIntegersFromOpset14) {
  std::vector<Value> in = {TensorValue<int32_t>({3}, {-5, 0, 7})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Relu(X)", 13, in), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Relu(X)", 14, in));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(0, 0, 7));
}

TEST_F(UnaryMathTest, SigmoidIsStableForLargeInputs) {
  std::vector<float> y = RunFloat("Y = Sigmoid(X)", 13, {-1000, -1, 0, 1, 1000});
  EXPECT_THAT(
      y, Pointwise(FloatNear(1e-6f), std::vector<float>{0, 0.26894142f, 0.5f, 0.73105858f, 1}));
}

TEST_F(UnaryMathTest, MathFunctionsMatchTheStandardLibrary) {
  const std::vector<float> x = {0.25f, 1.0f, 2.5f};
  struct Case {
    const char* op;
    float (*f)(float);
  } cases[] = {{"Exp", std::exp},   {"Log", std::log},   {"Sqrt", std::sqrt}, {"Tanh", std::tanh},
               {"Sin", std::sin},   {"Cos", std::cos},   {"Erf", std::erf},   {"Floor", std::floor},
               {"Ceil", std::ceil}, {"Atan", std::atan}, {"Sinh", std::sinh}, {"Cosh", std::cosh}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    std::vector<float> want;
    for (float v : x) want.push_back(c.f(v));
    EXPECT_THAT(RunFloat(std::string("Y = ") + c.op + "(X)", 13, x),
                Pointwise(FloatNear(1e-6f), want));
  }
}

TEST_F(UnaryMathTest, LogAndSqrtOutsideTheirDomain) {
  std::vector<float> log = RunFloat("Y = Log(X)", 13, {0, -1});
  EXPECT_EQ(log[0], -kInf);
  EXPECT_TRUE(std::isnan(log[1]));
  EXPECT_TRUE(std::isnan(RunFloat("Y = Sqrt(X)", 13, {-4})[0]));
  EXPECT_EQ(RunFloat("Y = Reciprocal(X)", 13, {0})[0], kInf);
}

TEST_F(UnaryMathTest, AbsAndNegWrapForTheMostNegativeInteger) {
  const int8_t kMin = std::numeric_limits<int8_t>::min();
  ASSERT_OK_AND_ASSIGN(
      auto abs, RunNode(registry_, "Y = Abs(X)", 13, {TensorValue<int8_t>({3}, {kMin, -3, 4})}));
  EXPECT_THAT(ValuesOf<int8_t>(abs[0]), ElementsAre(kMin, 3, 4));
  ASSERT_OK_AND_ASSIGN(
      auto neg, RunNode(registry_, "Y = Neg(X)", 13, {TensorValue<int8_t>({3}, {kMin, -3, 4})}));
  EXPECT_THAT(ValuesOf<int8_t>(neg[0]), ElementsAre(kMin, 3, -4));
  ASSERT_OK_AND_ASSIGN(auto u,
                       RunNode(registry_, "Y = Abs(X)", 13, {TensorValue<uint16_t>({1}, {65535})}));
  EXPECT_THAT(ValuesOf<uint16_t>(u[0]), ElementsAre(65535));
  // Neg has no unsigned forms.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Neg(X)", 13, {TensorValue<uint8_t>({1}, {1})}),
                    kUnimplemented);
}

TEST_F(UnaryMathTest, ParametrisedActivationsUseTheirDefaults) {
  EXPECT_THAT(RunFloat("Y = LeakyRelu(X)", 16, {-10, 2}),
              Pointwise(FloatNear(1e-6f), std::vector<float>{-0.1f, 2}));
  EXPECT_THAT(RunFloat("Y = LeakyRelu <alpha = 0.5> (X)", 6, {-10, 2}),
              Pointwise(FloatNear(1e-6f), std::vector<float>{-5, 2}));
  EXPECT_THAT(RunFloat("Y = Elu(X)", 6, {-1, 3}),
              Pointwise(FloatNear(1e-6f), std::vector<float>{std::expm1(-1.0f), 3}));
  EXPECT_THAT(RunFloat("Y = Elu <alpha = 2.0> (X)", 6, {-1}),
              Pointwise(FloatNear(1e-6f), std::vector<float>{2 * std::expm1(-1.0f)}));
  EXPECT_THAT(RunFloat("Y = Selu(X)", 6, {-1, 1}),
              Pointwise(FloatNear(1e-5f), std::vector<float>{-1.1113307f, 1.0507009f}));
  EXPECT_THAT(RunFloat("Y = HardSigmoid(X)", 6, {-10, 0, 1, 10}),
              Pointwise(FloatNear(1e-6f), std::vector<float>{0, 0.5f, 0.7f, 1}));
  EXPECT_THAT(RunFloat("Y = ThresholdedRelu(X)", 10, {0.5f, 1.0f, 1.5f}),
              Pointwise(FloatNear(1e-6f), std::vector<float>{0, 0, 1.5f}));
}

TEST_F(UnaryMathTest, RoundIsHalfToEven) {
  EXPECT_THAT(RunFloat("Y = Round(X)", 11, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.4f}),
              ElementsAre(0, 2, 2, -0.0f, -2, 2));
}

TEST_F(UnaryMathTest, SignOfIntegersAndFloats) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Sign(X)", 13, {TensorValue<int64_t>({3}, {-7, 0, 9})}));
  EXPECT_THAT(ValuesOf<int64_t>(out[0]), ElementsAre(-1, 0, 1));
  std::vector<float> y = RunFloat("Y = Sign(X)", 13, {-0.5f, 0, 2, kNaN});
  EXPECT_THAT(std::vector<float>(y.begin(), y.begin() + 3), ElementsAre(-1, 0, 1));
  EXPECT_TRUE(std::isnan(y[3]));
}

TEST_F(UnaryMathTest, HalfTypesComputeThroughFloat) {
  ASSERT_OK_AND_ASSIGN(auto h, RunNode(registry_, "Y = Exp(X)", 13, {HalfValue({2}, {0, 1})}));
  EXPECT_THAT(HalfValuesOf<Float16>(h[0]),
              Pointwise(FloatNear(2e-3f), std::vector<float>{1, 2.71828f}));
  ASSERT_OK_AND_ASSIGN(auto b, RunNode(registry_, "Y = Sqrt(X)", 13, {BFloat16Value({1}, {4})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(b[0]), ElementsAre(2));
  // bfloat16 exists for Exp only from opset 13.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Exp(X)", 12, {BFloat16Value({1}, {1})}),
                    kUnimplemented);
}

TEST_F(UnaryMathTest, EmptyTensorGivesEmptyResult) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = Tanh(X)", 13, {TensorValue<double>({0, 4}, {})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(0, 4));
}

// Erf-9 takes integers; ONNX 1.23.2's Erf-13 allows floats only.
TEST_F(UnaryMathTest, ErfOfIntegersTruncates) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Erf(X)", 12, {TensorValue<int32_t>({3}, {-9, 0, 9})}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(-1, 0, 1));
}

class ClipTest : public UnaryMathTest {};

TEST_F(ClipTest, AttributeBoundsBeforeOpset11) {
  EXPECT_THAT(RunFloat("Y = Clip <min = -1.0, max = 1.0> (X)", 6, {-5, 0.5f, 5}),
              ElementsAre(-1, 0.5f, 1));
  // Clip-1 without attributes does not bound at all; Clip-6 defaults to the float range.
  EXPECT_THAT(RunFloat("Y = Clip(X)", 1, {-1e30f, 1e30f}), ElementsAre(-1e30f, 1e30f));
  ASSERT_OK_AND_ASSIGN(
      auto d, RunNode(registry_, "Y = Clip(X)", 6, {TensorValue<double>({2}, {-1e300, 1e300})}));
  EXPECT_THAT(ValuesOf<double>(d[0]),
              ElementsAre(-std::numeric_limits<float>::max(), std::numeric_limits<float>::max()));
}

TEST_F(ClipTest, InputBoundsFromOpset11) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Clip(X, lo, hi)", 11,
                        {TensorValue<float>({4}, {-5, 0.5f, 5, kNaN}), TensorValue<float>({}, {-1}),
                         TensorValue<float>({}, {1})}));
  std::vector<float> v = ValuesOf<float>(out[0]);
  EXPECT_THAT(std::vector<float>(v.begin(), v.begin() + 3), ElementsAre(-1, 0.5f, 1));
  EXPECT_TRUE(std::isnan(v[3]));
  // Only the upper bound given.
  ASSERT_OK_AND_ASSIGN(
      auto hi, RunNode(registry_, "Y = Clip(X, , hi)", 11,
                       {TensorValue<float>({2}, {-5, 5}), Value(), TensorValue<float>({}, {1})}));
  EXPECT_THAT(ValuesOf<float>(hi[0]), ElementsAre(-5, 1));
}

TEST_F(ClipTest, MinAboveMaxGivesMax) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = Clip(X, lo, hi)", 13,
                        {TensorValue<int32_t>({3}, {-5, 0, 5}), TensorValue<int32_t>({}, {3}),
                         TensorValue<int32_t>({}, {1})}));
  EXPECT_THAT(ValuesOf<int32_t>(out[0]), ElementsAre(1, 1, 1));
}

TEST_F(ClipTest, IntegersFromOpset12AndScalarBounds) {
  std::vector<Value> in = {TensorValue<int8_t>({3}, {-100, 0, 100}), TensorValue<int8_t>({}, {-10}),
                           TensorValue<int8_t>({}, {10})};
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Clip(X, lo, hi)", 11, in), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Clip(X, lo, hi)", 12, in));
  EXPECT_THAT(ValuesOf<int8_t>(out[0]), ElementsAre(-10, 0, 10));
  Tensor x = Tensor::FromVector<float>({1}, {0});
  Tensor two = Tensor::FromVector<float>({2}, {0, 1});
  EXPECT_ERROR_CODE(Clip(x, &two, nullptr), kInvalidArgument);
}

TEST_F(UnaryMathTest, GeluExactAndTanhApproximation) {
  EXPECT_THAT(
      RunFloat("Y = Gelu(X)", 20, {-1, 0, 1, 2}),
      Pointwise(FloatNear(1e-6f), std::vector<float>{-0.15865525f, 0, 0.84134475f, 1.95449974f}));
  EXPECT_THAT(
      RunFloat("Y = Gelu <approximate = \"tanh\"> (X)", 20, {-1, 0, 1, 2}),
      Pointwise(FloatNear(1e-6f), std::vector<float>{-0.15880801f, 0, 0.84119199f, 1.95459769f}));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Gelu <approximate = \"erf\"> (X)", 20,
                            {TensorValue<float>({1}, {1})}),
                    kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(auto bf, RunNode(registry_, "Y = Gelu(X)", 20, {BFloat16Value({1}, {0})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(0));
}

TEST_F(UnaryMathTest, MishAndSwish) {
  EXPECT_THAT(
      RunFloat("Y = Mish(X)", 18, {-1, 0, 1, 2}),
      Pointwise(FloatNear(1e-6f), std::vector<float>{-0.30340146f, 0, 0.86509839f, 1.94395896f}));
  std::vector<float> big = RunFloat("Y = Mish(X)", 22, {1000, -1000});
  EXPECT_THAT(big, ElementsAre(1000, FloatNear(0, 1e-6f)));
  EXPECT_THAT(
      RunFloat("Y = Swish <alpha = 2.0> (X)", 24, {-1, 0, 1, 2}),
      Pointwise(FloatNear(1e-6f), std::vector<float>{-0.11920292f, 0, 0.88079708f, 1.96402758f}));
  EXPECT_THAT(RunFloat("Y = Swish(X)", 24, {-1000, 1000}), ElementsAre(FloatNear(0, 1e-6f), 1000));
  Value bf = BFloat16Value({1}, {1});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Mish(X)", 18, {bf}), kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "Y = Mish(X)", 22, {bf}).ok());
}

TEST_F(UnaryMathTest, Version22AddsBFloat16) {
  Value bf = BFloat16Value({2}, {0, 1});
  for (const char* op : {"Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh",
                         "Acosh", "Atanh", "Round", "Softplus", "Softsign", "Elu", "Selu",
                         "HardSigmoid", "ThresholdedRelu", "HardSwish"}) {
    const std::string node = std::string("Y = ") + op + "(X)";
    SCOPED_TRACE(op);
    EXPECT_ERROR_CODE(RunNode(registry_, node, 21, {bf}), kUnimplemented);
    EXPECT_TRUE(RunNode(registry_, node, 22, {bf}).ok()) << op;
  }
  ASSERT_OK_AND_ASSIGN(auto sin, RunNode(registry_, "Y = Sin(X)", 22, {bf}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(sin[0]),
              ElementsAre(0, BFloat16::FromFloat(std::sin(1.0f)).ToFloat()));
}

TEST_F(UnaryMathTest, CeluTakesEveryFloatTypeFromOpset28) {
  Value d = TensorValue<double>({2}, {-1, 2});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Celu <alpha = 2.0> (X)", 12, {d}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = Celu <alpha = 2.0> (X)", 28, {d}));
  EXPECT_THAT(ValuesOf<double>(out[0]), ElementsAre(DoubleNear(-0.78693868, 1e-8), 2));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = Celu <alpha = 0.0> (X)", 28, {d}), kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
