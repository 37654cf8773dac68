// The dnnl kernels against the ref kernels (the oracle) on seeded random inputs: every claimed op,
// with the attribute and shape variants that change which oneDNN primitive runs (broadcast
// patterns, batch broadcasting and 1-D operands, transposes, axes, groups, dilations, auto_pad,
// ceil_mode, output_padding and output_shape), plus NaN propagation, declines at load and errors
// at run time, Identity handing on a resident tensor as it is, and MatMul carrying the bias and
// Gelu of dnnl's MatMul claim.
#include "runtime/ep/dnnl/dnnl_kernels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <thread>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/ep/dnnl/kernels/identity.h"
#include "runtime/ep/dnnl/kernels/matmul.h"
#include "runtime/kernel/kernel_test_util.h"
#include "runtime/onnx/op_spec.h"
#include "runtime/onnx/text_format.h"

namespace onnxgate::dnnl_ep {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

const KernelRegistry& Dnnl() {
  static const KernelRegistry* registry = [] {
    auto context = DnnlContext::Create();
    EXPECT_TRUE(context.ok()) << context.status().ToString();
    auto* r = new KernelRegistry();
    auto ref = BuiltinRefProvider();
    EXPECT_TRUE(ref.ok()) << ref.status().ToString();
    Status st = ref.ok() ? RegisterDnnlKernels(*r, *context, *ref) : ref.status();
    EXPECT_TRUE(st.ok()) << st.ToString();
    return r;
  }();
  return *registry;
}

// ref's registry, the oracle every kernel here is compared with.
const KernelRegistry& Ref() {
  static const std::shared_ptr<const ExecutionProvider> ref = [] {
    auto provider = BuiltinRefProvider();
    EXPECT_TRUE(provider.ok()) << provider.status().ToString();
    return provider.ok() ? *provider : nullptr;
  }();
  static const KernelRegistry empty;
  return ref != nullptr ? ref->registry() : empty;
}

Value Random(Shape shape, uint32_t seed, float lo = -3.0f, float hi = 3.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(static_cast<size_t>(shape.NumElements()));
  for (float& x : v) x = dist(gen);
  return TensorValue<float>(std::move(shape), v);
}

Value Scalar(float v) { return TensorValue<float>(Shape{}, {v}); }

// Runs `node` on both registries and compares every output: shapes equal, values within
// |d - r| <= atol + rtol * |r|, NaN only where ref has NaN.
void ExpectMatchesRef(const std::string& node, int opset, const std::vector<Value>& inputs,
                      float rtol = 1e-5f, float atol = 1e-5f) {
  SCOPED_TRACE(node + " at opset " + std::to_string(opset));
  auto want = RunNode(Ref(), node, opset, inputs);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  auto got = RunNode(Dnnl(), node, opset, inputs);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), want->size());
  for (size_t o = 0; o < want->size(); ++o) {
    const Tensor& w = (*want)[o].tensor();
    const Tensor& g = (*got)[o].tensor();
    ASSERT_EQ(g.shape(), w.shape()) << "output " << o;
    ASSERT_EQ(g.dtype(), DataType::kFloat);
    const float* gd = g.data<float>();
    const float* wd = w.data<float>();
    int reported = 0;
    for (int64_t i = 0; i < w.NumElements(); ++i) {
      const bool ok = std::isnan(wd[i]) ? std::isnan(gd[i])
                      : std::isinf(wd[i])
                          ? gd[i] == wd[i]
                          : std::fabs(gd[i] - wd[i]) <= atol + rtol * std::fabs(wd[i]);
      if (!ok && reported++ < 5) {
        ADD_FAILURE() << "output " << o << " element " << i << ": dnnl " << gd[i] << ", ref "
                      << wd[i];
      }
    }
  }
}

// Runs `node` on dnnl alone and returns output 0.
Tensor RunDnnl(const std::string& node, int opset, const std::vector<Value>& inputs) {
  auto got = RunNode(Dnnl(), node, opset, inputs);
  EXPECT_TRUE(got.ok()) << got.status().ToString();
  return got.ok() ? (*got)[0].tensor() : Tensor();
}

TEST(DnnlEltwiseTest, EveryActivationMatchesRef) {
  const Value x = Random(Shape{2, 3, 5}, 1);
  const Value positive = Random(Shape{4, 7}, 2, 0.01f, 9.0f);
  ExpectMatchesRef("Y = Relu(X)", 14, {x});
  ExpectMatchesRef("Y = Relu(X)", 6, {x});
  ExpectMatchesRef("Y = LeakyRelu(X)", 16, {x});
  ExpectMatchesRef("Y = LeakyRelu <alpha = 0.3> (X)", 6, {x});
  ExpectMatchesRef("Y = Sigmoid(X)", 13, {x}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Tanh(X)", 13, {x}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Exp(X)", 13, {x}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Log(X)", 13, {positive}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Sqrt(X)", 13, {positive});
  ExpectMatchesRef("Y = Abs(X)", 13, {x});
  ExpectMatchesRef("Y = Elu(X)", 22, {x}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Elu <alpha = 2.0> (X)", 6, {x}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = HardSigmoid(X)", 22, {x});
  ExpectMatchesRef("Y = HardSigmoid <alpha = 0.5, beta = 0.6> (X)", 6, {x});
  ExpectMatchesRef("Y = Softplus(X)", 22, {x}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Softplus(X)", 1, {Random(Shape{9}, 3, -100.0f, 100.0f)}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Gelu(X)", 20, {Random(Shape{64}, 4, -8.0f, 8.0f)}, 1e-5f, 1e-6f);
  ExpectMatchesRef("Y = Gelu <approximate = \"tanh\"> (X)", 20, {Random(Shape{64}, 5, -8.0f, 8.0f)},
                   1e-5f, 1e-6f);
}

TEST(DnnlEltwiseTest, ScalarsAndEmptyTensors) {
  ExpectMatchesRef("Y = Relu(X)", 14, {Scalar(-2.0f)});
  ExpectMatchesRef("Y = Exp(X)", 13, {Scalar(1.5f)});
  ExpectMatchesRef("Y = Tanh(X)", 13, {TensorValue<float>(Shape{3, 0}, {})});
}

TEST(DnnlEltwiseTest, NanPassesThroughEveryActivation) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Long enough for oneDNN's vector loop as well as its tail.
  std::vector<float> v(37, 0.5f);
  v[0] = nan;
  v[20] = nan;
  const Value x = TensorValue<float>(Shape{37}, v);
  for (const char* node : {"Y = Relu(X)", "Y = LeakyRelu(X)", "Y = Sigmoid(X)", "Y = Tanh(X)",
                           "Y = Exp(X)", "Y = Log(X)", "Y = Sqrt(X)", "Y = Abs(X)", "Y = Elu(X)",
                           "Y = HardSigmoid(X)", "Y = Softplus(X)", "Y = Clip <min = -1.0> (X)"}) {
    SCOPED_TRACE(node);
    Tensor y = RunDnnl(node, std::string(node).find("Clip") != std::string::npos ? 6 : 13, {x});
    ASSERT_EQ(y.NumElements(), 37);
    EXPECT_TRUE(std::isnan(y.data<float>()[0]));
    EXPECT_TRUE(std::isnan(y.data<float>()[20]));
    EXPECT_FALSE(std::isnan(y.data<float>()[1]));
  }
  ExpectMatchesRef("Y = Clip(X, lo, hi)", 13, {x, Scalar(-1.0f), Scalar(0.2f)});
}

TEST(DnnlEltwiseTest, ClipBoundsFromAttributesAndInputs) {
  const Value x = Random(Shape{3, 4}, 4);
  ExpectMatchesRef("Y = Clip(X)", 6, {x});
  ExpectMatchesRef("Y = Clip <min = -0.5, max = 0.7> (X)", 6, {x});
  ExpectMatchesRef("Y = Clip(X, lo, hi)", 13, {x, Scalar(-1.0f), Scalar(1.0f)});
  ExpectMatchesRef("Y = Clip(X, lo)", 11, {x, Scalar(0.0f)});
  ExpectMatchesRef("Y = Clip(X, \"\", hi)", 12, {x, Value(), Scalar(0.1f)});
  ExpectMatchesRef("Y = Clip(X)", 13, {x});
  // min > max: every value becomes max, as the spec says.
  ExpectMatchesRef("Y = Clip(X, lo, hi)", 13, {x, Scalar(2.0f), Scalar(1.0f)});
  // Several bound values on one kernel: the primitive is keyed by them.
  auto bad = RunNode(Dnnl(), "Y = Clip(X, lo, hi)", 13,
                     {x, TensorValue<float>(Shape{2}, {0, 1}), Scalar(1.0f)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("'min' must be a scalar"));
}

TEST(DnnlBinaryTest, EveryBroadcastPatternMatchesRef) {
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {Shape{2, 3, 4}, Shape{2, 3, 4}},
      {Shape{2, 3, 4}, Shape{4}},
      {Shape{4}, Shape{2, 3, 4}},
      {Shape{2, 1, 4}, Shape{1, 3, 1}},
      {Shape{3, 1}, Shape{1, 5}},
      {Shape{}, Shape{2, 3}},
      {Shape{2, 3}, Shape{}},
      {Shape{5, 1, 1, 2}, Shape{3, 1}},
      {Shape{1}, Shape{1}},
      {Shape{2, 1, 3, 1, 4, 1, 5}, Shape{1, 2, 1, 3, 1, 4, 1}}};
  uint32_t seed = 10;
  for (const auto& [a, b] : shapes) {
    const Value va = Random(a, seed++);
    const Value vb = Random(b, seed++, 0.5f, 3.0f);  // no zero divisors
    for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
      SCOPED_TRACE(a.ToString() + " " + op + " " + b.ToString());
      ExpectMatchesRef(std::string("C = ") + op + "(A, B)", 14, {va, vb});
      ExpectMatchesRef(std::string("C = ") + op + "(A, B)", 7, {va, vb});
    }
  }
}

TEST(DnnlBinaryTest, EmptyOperandsAndBadShapes) {
  ExpectMatchesRef("C = Add(A, B)", 14, {TensorValue<float>(Shape{0, 3}, {}), Random(Shape{3}, 1)});
  auto bad = RunNode(Dnnl(), "C = Sub(A, B)", 14, {Random(Shape{2, 3}, 1), Random(Shape{4}, 2)});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(DnnlMatMulTest, BatchesBroadcastAndOneDimensionalOperands) {
  const std::vector<std::pair<Shape, Shape>> shapes = {{Shape{3, 4}, Shape{4, 5}},
                                                       {Shape{2, 3, 4}, Shape{2, 4, 5}},
                                                       {Shape{2, 3, 4}, Shape{4, 5}},
                                                       {Shape{3, 4}, Shape{2, 4, 5}},
                                                       {Shape{2, 1, 3, 4}, Shape{1, 5, 4, 2}},
                                                       {Shape{4}, Shape{4, 5}},
                                                       {Shape{3, 4}, Shape{4}},
                                                       {Shape{4}, Shape{4}},
                                                       {Shape{4}, Shape{2, 3, 4, 5}},
                                                       {Shape{2, 3, 3, 4}, Shape{4}},
                                                       {Shape{1, 1}, Shape{1, 1}}};
  uint32_t seed = 40;
  for (const auto& [a, b] : shapes) {
    SCOPED_TRACE(a.ToString() + " x " + b.ToString());
    ExpectMatchesRef("Y = MatMul(A, B)", 13, {Random(a, seed), Random(b, seed + 1)}, 1e-4f, 1e-5f);
    ExpectMatchesRef("Y = MatMul(A, B)", 1, {Random(a, seed), Random(b, seed + 1)}, 1e-4f, 1e-5f);
    seed += 2;
  }
}

TEST(DnnlMatMulTest, EmptyDimsGiveEmptyOrZeroResults) {
  ExpectMatchesRef("Y = MatMul(A, B)", 13,
                   {TensorValue<float>(Shape{3, 0}, {}), TensorValue<float>(Shape{0, 2}, {})});
  ExpectMatchesRef("Y = MatMul(A, B)", 13,
                   {TensorValue<float>(Shape{0, 4}, {}), Random(Shape{4, 2}, 1)});
  auto bad =
      RunNode(Dnnl(), "Y = MatMul(A, B)", 13, {Random(Shape{3, 4}, 1), Random(Shape{5, 2}, 2)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("do not agree on the inner dimension"));
}

// Y = Gelu(MatMul(A, B) + bias) (Gelu when `gelu`) on the kernel of dnnl's MatMul claim
// (matmul_fusion.h), and the same on ref's MatMul, Add and Gelu one after the other.
StatusOr<Tensor> RunMatMulWithBias(const Value& a, const Value& b, const Value& bias, bool gelu) {
  static const std::shared_ptr<const DnnlContext> context = *DnnlContext::Create();
  onnx::NodeProto node;
  ONNXGATE_RETURN_IF_ERROR(ParseNodeText("Y = MatMul(A, B)", &node));
  MatMulEpilogue epilogue;
  epilogue.bias = true;
  if (gelu) epilogue.activation = {{dnnl::algorithm::eltwise_gelu_erf}};
  ONNXGATE_ASSIGN_OR_RETURN(
      std::unique_ptr<OpKernel> kernel,
      MatMulKernel::Create(KernelInfo(node, 13, {DataType::kFloat, DataType::kFloat}), context,
                           std::move(epilogue)));
  KernelContext ctx({&a, &b, &bias}, 1, nullptr);
  ONNXGATE_RETURN_IF_ERROR(kernel->Compute(ctx));
  return ctx.outputs()[0].tensor();
}

StatusOr<Tensor> RefMatMulWithBias(const Value& a, const Value& b, const Value& bias, bool gelu) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Value> product,
                            RunNode(Ref(), "Y = MatMul(A, B)", 13, {a, b}));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Value> sum,
                            RunNode(Ref(), "Y = Add(A, B)", 14, {product[0], bias}));
  if (!gelu) return sum[0].tensor();
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<Value> y, RunNode(Ref(), "Y = Gelu(X)", 20, {sum[0]}));
  return y[0].tensor();
}

// Batched and broadcast shapes, a bias of rank below Y's, K = 0 (Y is the bias, then the Gelu),
// and NaN; the kernel refuses a 1-D operand and a bias that is not along the last axis.
TEST(DnnlMatMulTest, ABiasAndAGeluRunOnTheMatMulPrimitive) {
  struct Case {
    Shape a, b, bias;
  };
  const Case cases[] = {{Shape{3, 4}, Shape{4, 5}, Shape{5}},
                        {Shape{2, 3, 4}, Shape{4, 5}, Shape{1, 5}},
                        {Shape{2, 1, 3, 4}, Shape{3, 4, 5}, Shape{1, 1, 1, 5}},
                        {Shape{3, 0}, Shape{0, 5}, Shape{5}},
                        {Shape{0, 4}, Shape{4, 5}, Shape{5}}};
  uint32_t seed = 70;
  for (const Case& c : cases) {
    for (bool gelu : {false, true}) {
      SCOPED_TRACE(c.a.ToString() + " x " + c.b.ToString() + " + " + c.bias.ToString() +
                   (gelu ? ", Gelu" : ""));
      Tensor a = Random(c.a, seed).tensor().Clone();
      if (a.NumElements() > 0) a.mutable_data<float>()[1] = std::numeric_limits<float>::quiet_NaN();
      const Value va = Value::FromTensor(std::move(a));
      const Value vb = Random(c.b, seed + 1, -1.0f, 1.0f);
      const Value vbias = Random(c.bias, seed + 2);
      auto got = RunMatMulWithBias(va, vb, vbias, gelu);
      auto want = RefMatMulWithBias(va, vb, vbias, gelu);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_TRUE(want.ok()) << want.status().ToString();
      ASSERT_EQ(got->shape(), want->shape());
      for (int64_t i = 0; i < want->NumElements(); ++i) {
        const float g = got->data<float>()[i], w = want->data<float>()[i];
        if (std::isnan(w)) {
          EXPECT_TRUE(std::isnan(g)) << "element " << i << ": " << g;
        } else {
          EXPECT_NEAR(g, w, 1e-5f + 1e-4f * std::fabs(w)) << "element " << i;
        }
      }
      seed += 3;
    }
  }
  auto one_d =
      RunMatMulWithBias(Random(Shape{4}, 1), Random(Shape{4, 5}, 2), Random(Shape{5}, 3), false);
  EXPECT_THAT(one_d.status().message(), HasSubstr("must have rank >= 2"));
  for (const Shape& bias : {Shape{3, 1}, Shape{3, 5}, Shape{1, 1, 5}, Shape{4}}) {
    auto wrong =
        RunMatMulWithBias(Random(Shape{3, 4}, 1), Random(Shape{4, 5}, 2), Random(bias, 3), true);
    EXPECT_THAT(wrong.status().message(), HasSubstr("is not [N] or [1, ..., 1, N]"))
        << bias.ToString();
  }
}

TEST(DnnlGemmTest, TransposesScalesAndEveryShapeOfC) {
  const Value a = Random(Shape{3, 4}, 50);
  const Value at = Random(Shape{4, 3}, 51);
  const Value b = Random(Shape{4, 5}, 52);
  const Value bt = Random(Shape{5, 4}, 53);
  for (const Shape& c : {Shape{3, 5}, Shape{5}, Shape{1, 5}, Shape{3, 1}, Shape{}, Shape{1}}) {
    SCOPED_TRACE("C " + c.ToString());
    const Value vc = Random(c, 54);
    ExpectMatchesRef("Y = Gemm(A, B, C)", 13, {a, b, vc}, 1e-4f, 1e-5f);
    ExpectMatchesRef("Y = Gemm <transA = 1, alpha = 0.5, beta = 2.0> (A, B, C)", 11, {at, b, vc},
                     1e-4f, 1e-5f);
    ExpectMatchesRef("Y = Gemm <transB = 1, beta = 0.0> (A, B, C)", 9, {a, bt, vc}, 1e-4f, 1e-5f);
    ExpectMatchesRef("Y = Gemm <transA = 1, transB = 1, alpha = -1.5> (A, B, C)", 7, {at, bt, vc},
                     1e-4f, 1e-5f);
  }
  ExpectMatchesRef("Y = Gemm <alpha = 3.0> (A, B)", 13, {a, b}, 1e-4f, 1e-5f);
  auto bad = RunNode(Dnnl(), "Y = Gemm(A, B, C)", 13, {a, b, Random(Shape{2, 5}, 1)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("does not broadcast to [3,5]"));
}

// C of [N] or [1, N] added once (alpha = beta = 1) is the matmul primitive's bias: with each
// transpose, a NaN in C (its column NaN), and K = 0, where no product carries it and Y is C.
TEST(DnnlGemmTest, CAlongTheColumnsAddedOnceIsTheMatMulBias) {
  const Value a = Random(Shape{3, 4}, 55);
  const Value at = Random(Shape{4, 3}, 56);
  const Value b = Random(Shape{4, 5}, 57);
  const Value bt = Random(Shape{5, 4}, 58);
  for (const Shape& c : {Shape{5}, Shape{1, 5}}) {
    SCOPED_TRACE("C " + c.ToString());
    Tensor with_nan = Random(c, 59).tensor().Clone();
    with_nan.mutable_data<float>()[2] = std::numeric_limits<float>::quiet_NaN();
    for (const Value& vc : {Random(c, 59), Value::FromTensor(std::move(with_nan))}) {
      ExpectMatchesRef("Y = Gemm(A, B, C)", 13, {a, b, vc}, 1e-4f, 1e-5f);
      ExpectMatchesRef("Y = Gemm <transA = 1> (A, B, C)", 11, {at, b, vc}, 1e-4f, 1e-5f);
      ExpectMatchesRef("Y = Gemm <transB = 1, alpha = 1.0, beta = 1.0> (A, B, C)", 9, {a, bt, vc},
                       1e-4f, 1e-5f);
      ExpectMatchesRef("Y = Gemm <transA = 1, transB = 1> (A, B, C)", 7, {at, bt, vc}, 1e-4f,
                       1e-5f);
    }
    ExpectMatchesRef(
        "Y = Gemm(A, B, C)", 13,
        {TensorValue<float>(Shape{3, 0}, {}), TensorValue<float>(Shape{0, 5}, {}), Random(c, 60)});
  }
}

TEST(DnnlSoftmaxTest, EveryAxisOfSoftmaxAndLogSoftmax) {
  const Value x = Random(Shape{2, 3, 4}, 60, -10.0f, 10.0f);
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (int axis = -3; axis < 3; ++axis) {
      ExpectMatchesRef(std::string("Y = ") + op + " <axis = " + std::to_string(axis) + "> (X)", 13,
                       {x}, 1e-5f, 1e-6f);
    }
    ExpectMatchesRef(std::string("Y = ") + op + "(X)", 13, {x}, 1e-5f, 1e-6f);
    ExpectMatchesRef(std::string("Y = ") + op + "(X)", 13, {Random(Shape{7}, 61)}, 1e-5f, 1e-6f);
  }
  auto bad = RunNode(Dnnl(), "Y = Softmax <axis = 3> (X)", 13, {x});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(DnnlConvTest, GroupsDilationsPadsStridesAndAutoPad) {
  struct Case {
    std::string attrs;
    Shape x, w;
    bool bias;
  };
  const std::vector<Case> cases = {
      {"", Shape{1, 1, 5, 5}, Shape{1, 1, 3, 3}, false},
      {"<pads = [1, 1, 1, 1]>", Shape{2, 3, 7, 6}, Shape{4, 3, 3, 3}, true},
      {"<strides = [2, 2], pads = [1, 0, 1, 0]>", Shape{1, 2, 7, 5}, Shape{3, 2, 3, 2}, true},
      {"<dilations = [2, 2]>", Shape{1, 2, 9, 9}, Shape{2, 2, 3, 3}, false},
      {"<group = 2>", Shape{1, 4, 6, 6}, Shape{6, 2, 3, 3}, true},
      {"<group = 8, pads = [1, 1, 1, 1]>", Shape{2, 8, 5, 5}, Shape{8, 1, 3, 3},
       true},  // depthwise
      {"<auto_pad = \"SAME_UPPER\", strides = [2, 2]>", Shape{1, 3, 7, 7}, Shape{2, 3, 4, 4},
       false},
      {"<auto_pad = \"SAME_LOWER\">", Shape{1, 3, 6, 6}, Shape{2, 3, 2, 2}, false},
      {"<auto_pad = \"VALID\", strides = [3, 2]>", Shape{1, 3, 8, 9}, Shape{2, 3, 2, 3}, true},
      {"<kernel_shape = [3]>", Shape{2, 3, 10}, Shape{5, 3, 3}, true},                    // 1-D
      {"<pads = [1, 0, 1, 1, 0, 1]>", Shape{1, 2, 4, 5, 4}, Shape{3, 2, 2, 3, 3}, true},  // 3-D
      {"", Shape{1, 16, 8, 8}, Shape{32, 16, 1, 1}, true},  // blocked layouts
  };
  uint32_t seed = 70;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.attrs + " X " + c.x.ToString() + " W " + c.w.ToString());
    std::vector<Value> inputs = {Random(c.x, seed), Random(c.w, seed + 1)};
    if (c.bias) inputs.push_back(Random(Shape{c.w[0]}, seed + 2));
    const std::string node = "Y = Conv " + c.attrs + (c.bias ? " (X, W, B)" : " (X, W)");
    ExpectMatchesRef(node, 22, inputs, 1e-4f, 1e-4f);
    ExpectMatchesRef(node, 11, inputs, 1e-4f, 1e-4f);
    seed += 3;
  }
}

TEST(DnnlConvTest, RefusesMismatchedShapesAndDeclinesFourSpatialDims) {
  auto bad = RunNode(Dnnl(), "Y = Conv <group = 2> (X, W)", 22,
                     {Random(Shape{1, 3, 5, 5}, 1), Random(Shape{2, 1, 3, 3}, 2)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("need C and M divisible by group"));
  auto four = RunNode(Dnnl(), "Y = Conv <kernel_shape = [1, 1, 1, 1]> (X, W)", 22,
                      {Random(Shape{1, 1, 2, 2, 2, 2}, 1), Random(Shape{1, 1, 1, 1, 1, 1}, 2)});
  ASSERT_FALSE(four.ok());
  EXPECT_EQ(four.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(four.status().message(), HasSubstr("1 to 3 spatial dims"));
}

TEST(DnnlConvTransposeTest, GroupsDilationsStridesOutputPaddingOutputShapeAndAutoPad) {
  struct Case {
    std::string attrs;
    Shape x, w;
    bool bias;
  };
  const std::vector<Case> cases = {
      {"", Shape{1, 1, 3, 3}, Shape{1, 2, 3, 3}, false},
      {"<kernel_shape = [3]>", Shape{2, 3, 5}, Shape{3, 2, 3}, true},  // 1-D
      {"<group = 2>", Shape{1, 4, 4, 4}, Shape{4, 3, 3, 3}, true},
      {"<group = 2, strides = [2, 2], pads = [1, 0, 0, 1]>", Shape{2, 4, 3, 5}, Shape{4, 2, 2, 3},
       false},
      {"<dilations = [2, 2]>", Shape{1, 2, 4, 4}, Shape{2, 3, 3, 3}, true},
      {"<dilations = [2, 1], strides = [2, 3], pads = [1, 1, 2, 0]>", Shape{1, 3, 4, 3},
       Shape{3, 2, 3, 2}, false},
      {"<strides = [3, 2], output_padding = [1, 1]>", Shape{1, 2, 3, 3}, Shape{2, 2, 3, 3}, true},
      {"<strides = [3, 2], output_padding = [2, 1], pads = [1, 1, 0, 0]>", Shape{1, 2, 3, 4},
       Shape{2, 3, 3, 3}, true},
      {"<strides = [3, 2], output_shape = [10, 8]>", Shape{1, 1, 3, 3}, Shape{1, 2, 3, 3}, false},
      {"<strides = [3, 2], output_shape = [1, 2, 10, 8], output_padding = [1, 1]>",
       Shape{1, 1, 3, 3}, Shape{1, 2, 3, 3}, true},
      {"<strides = [2, 2], output_shape = [4, 5]>", Shape{1, 2, 3, 3}, Shape{2, 2, 3, 3}, true},
      {"<auto_pad = \"SAME_UPPER\", strides = [2, 2]>", Shape{1, 1, 3, 3}, Shape{1, 2, 3, 3}, true},
      {"<auto_pad = \"SAME_LOWER\", strides = [2, 2]>", Shape{1, 2, 3, 4}, Shape{2, 2, 2, 3},
       false},
      {"<auto_pad = \"VALID\", strides = [2, 1]>", Shape{1, 2, 3, 3}, Shape{2, 2, 3, 2}, true},
      {"<pads = [1, 0, 1, 1, 0, 1], strides = [1, 2, 2]>", Shape{1, 2, 3, 4, 3},
       Shape{2, 3, 2, 3, 3}, true},                         // 3-D
      {"", Shape{1, 16, 6, 6}, Shape{16, 32, 3, 3}, true},  // blocked layouts
      {"<strides = [2, 2], output_padding = [1, 1]>", Shape{1, 16, 5, 5}, Shape{16, 16, 3, 3},
       true},
      {"<group = 16>", Shape{2, 16, 5, 5}, Shape{16, 1, 3, 3}, true},  // depthwise
      // Pads beyond what oneDNN takes: Y reaches past the kernel, whose part is copied in.
      {"<output_shape = [9, 8]>", Shape{1, 2, 3, 3}, Shape{2, 2, 3, 3}, true},
      {"<auto_pad = \"SAME_UPPER\", strides = [3, 3]>", Shape{1, 2, 3, 3}, Shape{2, 2, 1, 1}, true},
      {"<auto_pad = \"SAME_LOWER\", strides = [4]>", Shape{1, 2, 3}, Shape{2, 3, 1}, false},
      {"<strides = [2], output_padding = [3]>", Shape{1, 2, 4}, Shape{2, 2, 3}, true},
      {"<output_shape = [9, 9]>", Shape{1, 16, 4, 4}, Shape{16, 16, 3, 3}, true},
  };
  uint32_t seed = 600;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.attrs + " X " + c.x.ToString() + " W " + c.w.ToString());
    std::vector<Value> inputs = {Random(c.x, seed), Random(c.w, seed + 1)};
    const int64_t group = c.attrs.find("group = 16") != std::string::npos  ? 16
                          : c.attrs.find("group = 2") != std::string::npos ? 2
                                                                           : 1;
    if (c.bias) inputs.push_back(Random(Shape{c.w[1] * group}, seed + 2));
    const std::string node = "Y = ConvTranspose " + c.attrs + (c.bias ? " (X, W, B)" : " (X, W)");
    ExpectMatchesRef(node, 22, inputs, 1e-4f, 1e-4f);
    ExpectMatchesRef(node, 11, inputs, 1e-4f, 1e-4f);
    seed += 3;
  }
}

// Where no output depends on X (X empty, or output_shape asks only for what the kernel does not
// reach), Y is the bias on each channel.
TEST(DnnlConvTransposeTest, OutputsNoInputReachesHoldTheBias) {
  ExpectMatchesRef("Y = ConvTranspose (X, W, B)", 22,
                   {TensorValue<float>(Shape{1, 0, 3}, {}), TensorValue<float>(Shape{0, 2, 2}, {}),
                    Random(Shape{2}, 1)});
  ExpectMatchesRef(
      "Y = ConvTranspose <output_shape = [4], pads = [0, 0]> (X, W, B)", 22,
      {TensorValue<float>(Shape{1, 1, 0}, {}), Random(Shape{1, 2, 2}, 2), Random(Shape{2}, 3)});
  ExpectMatchesRef("Y = ConvTranspose (X, W)", 22,
                   {TensorValue<float>(Shape{0, 1, 3}, {}), Random(Shape{1, 2, 2}, 4)});
}

TEST(DnnlConvTransposeTest, RefusesMismatchedShapesAndDeclinesFourSpatialDims) {
  auto bad = RunNode(Dnnl(), "Y = ConvTranspose <group = 2> (X, W)", 22,
                     {Random(Shape{1, 3, 5, 5}, 1), Random(Shape{3, 1, 3, 3}, 2)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("divisible by group"));
  auto four = RunNode(Dnnl(), "Y = ConvTranspose <strides = [1, 1, 1, 1]> (X, W)", 22,
                      {Random(Shape{1, 1, 2, 2, 2, 2}, 1), Random(Shape{1, 1, 1, 1, 1, 1}, 2)});
  ASSERT_FALSE(four.ok());
  EXPECT_EQ(four.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(four.status().message(), HasSubstr("1 to 3 spatial dims"));
}

TEST(DnnlPoolTest, MaxAndAveragePoolingMatchRef) {
  struct Case {
    std::string op, attrs;
    int opset;
    Shape x;
  };
  const std::vector<Case> cases = {
      {"MaxPool", "<kernel_shape = [2, 2]>", 22, Shape{1, 3, 6, 6}},
      {"MaxPool", "<kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]>", 12,
       Shape{2, 2, 7, 7}},
      {"MaxPool", "<kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1>", 10,
       Shape{1, 1, 8, 8}},
      {"MaxPool", "<kernel_shape = [2, 2], dilations = [2, 2]>", 11, Shape{1, 2, 6, 7}},
      {"MaxPool", "<kernel_shape = [3], auto_pad = \"SAME_UPPER\", strides = [2]>", 8,
       Shape{1, 2, 9}},
      {"MaxPool", "<kernel_shape = [2, 2, 2]>", 1, Shape{1, 1, 3, 4, 5}},
      {"AveragePool", "<kernel_shape = [3, 3], pads = [1, 1, 1, 1]>", 22, Shape{1, 2, 5, 5}},
      {"AveragePool", "<kernel_shape = [3, 3], pads = [1, 1, 1, 1], count_include_pad = 1>", 19,
       Shape{1, 2, 5, 5}},
      {"AveragePool", "<kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1>", 11,
       Shape{1, 1, 8, 8}},
      {"AveragePool", "<kernel_shape = [2, 2], dilations = [2, 2], pads = [1, 1, 1, 1]>", 19,
       Shape{1, 1, 6, 6}},
      {"AveragePool", "<kernel_shape = [2, 3], auto_pad = \"SAME_LOWER\">", 7, Shape{2, 1, 5, 4}},
      // count_include_pad with ceil_mode pools a zero-padded copy.
      {"AveragePool",
       "<kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1, count_include_pad = 1, "
       "pads = [1, 1, 1, 1]>",
       22, Shape{1, 2, 5, 6}},
      {"AveragePool",
       "<kernel_shape = [2, 2, 2], strides = [2, 2, 2], dilations = [2, 2, 2], ceil_mode = 1, "
       "count_include_pad = 1, pads = [1, 0, 1, 1, 1, 0]>",
       19, Shape{1, 1, 6, 7, 5}},
      {"GlobalAveragePool", "", 22, Shape{2, 3, 4, 5}},
      {"GlobalAveragePool", "", 1, Shape{1, 2, 3}},
      {"GlobalMaxPool", "", 22, Shape{2, 3, 4, 5}},
      {"GlobalMaxPool", "", 1, Shape{1, 2, 3, 2, 2}},
  };
  uint32_t seed = 90;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op + " " + c.attrs + " X " + c.x.ToString());
    ExpectMatchesRef("Y = " + c.op + " " + c.attrs + " (X)", c.opset, {Random(c.x, seed++)}, 1e-5f,
                     1e-6f);
  }
}

// Scale and B on the primitive (the same for every leading index, broadcast or not), applied
// afterwards when they vary over the leading axes, without B, with the statistics outputs.
TEST(DnnlLayerNormalizationTest, MatchesRef) {
  const Value x = Random(Shape{2, 3, 4}, 120);
  struct Case {
    std::string node;
    std::vector<Value> inputs;
  };
  const std::vector<Case> cases = {
      {"Y = LayerNormalization (X, S, B)", {x, Random(Shape{4}, 121), Random(Shape{4}, 122)}},
      {"Y = LayerNormalization <axis = 1> (X, S, B)",
       {x, Random(Shape{3, 4}, 123), Random(Shape{1, 4}, 124)}},
      {"Y = LayerNormalization <axis = 0> (X, S)", {x, Random(Shape{2, 3, 4}, 125)}},
      {"Y = LayerNormalization (X, S, B)", {x, Random(Shape{2, 1, 4}, 126), Random(Shape{4}, 127)}},
      {"Y, M, I = LayerNormalization <axis = -2, epsilon = 0.01> (X, S, B)",
       {x, Random(Shape{1, 4}, 128), Random(Shape{3, 1}, 129)}},
      {"Y, M, I = LayerNormalization (X, S)", {Random(Shape{0, 4}, 130), Random(Shape{4}, 131)}},
  };
  for (const Case& c : cases) ExpectMatchesRef(c.node, 17, c.inputs, 1e-4f, 1e-5f);
}

TEST(DnnlLayerNormalizationTest, DeclinesBFloat16Statistics) {
  auto declined = RunNode(Dnnl(), "Y = LayerNormalization <stash_type = 16> (X, S)", 17,
                          {Random(Shape{2, 4}, 1), Random(Shape{4}, 2)});
  ASSERT_FALSE(declined.ok());
  EXPECT_EQ(declined.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(declined.status().message(), HasSubstr("stash_type 16"));
}

// Any rank from 2, spatial dims collapsed into one; training is declined at load.
TEST(DnnlBatchNormalizationTest, MatchesRefInInferenceAndDeclinesTraining) {
  for (const Shape& xs : {Shape{4, 3}, Shape{2, 3, 5}, Shape{1, 3, 2, 3, 4}}) {
    SCOPED_TRACE(xs.ToString());
    ExpectMatchesRef("Y = BatchNormalization (X, S, B, M, V)", 15,
                     {Random(xs, 140), Random(Shape{3}, 141), Random(Shape{3}, 142),
                      Random(Shape{3}, 143), Random(Shape{3}, 144, 0.1f, 2.0f)},
                     1e-5f, 1e-5f);
  }
  const std::vector<Value> inputs = {Random(Shape{2, 3, 4}, 1), Random(Shape{3}, 2),
                                     Random(Shape{3}, 3), Random(Shape{3}, 4),
                                     Random(Shape{3}, 5, 0.1f, 2.0f)};
  auto training = RunNode(
      Dnnl(), "Y, RM, RV = BatchNormalization <training_mode = 1> (X, S, B, M, V)", 15, inputs);
  ASSERT_FALSE(training.ok());
  EXPECT_EQ(training.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(training.status().message(), HasSubstr("training_mode = 1"));
}

// Every permutation of a rank-3 tensor, the default (reversed) one, ranks 1 and 5, an empty
// tensor; Concat on any axis, negative from 11, with an empty input among others.
TEST(DnnlDataMovementTest, TransposeAndConcatMatchRef) {
  const Value x3 = Random(Shape{2, 3, 4}, 150);
  for (const char* perm :
       {"[0, 1, 2]", "[0, 2, 1]", "[1, 0, 2]", "[1, 2, 0]", "[2, 0, 1]", "[2, 1, 0]"}) {
    ExpectMatchesRef(std::string("Y = Transpose <perm = ") + perm + "> (X)", 13, {x3});
  }
  ExpectMatchesRef("Y = Transpose (X)", 1, {x3});
  ExpectMatchesRef("Y = Transpose (X)", 21, {Random(Shape{7}, 151)});
  ExpectMatchesRef("Y = Transpose <perm = [4, 1, 3, 0, 2]> (X)", 25,
                   {Random(Shape{2, 1, 3, 2, 4}, 152)});
  ExpectMatchesRef("Y = Transpose <perm = [1, 0]> (X)", 13, {Random(Shape{0, 3}, 153)});

  ExpectMatchesRef("Y = Concat <axis = 2> (A, B, C)", 4,
                   {x3, Random(Shape{2, 3, 1}, 154), Random(Shape{2, 3, 6}, 155)});
  ExpectMatchesRef("Y = Concat <axis = -3> (A, B)", 13, {x3, Random(Shape{5, 3, 4}, 156)});
  ExpectMatchesRef("Y = Concat <axis = 1> (A, B, C)", 11,
                   {x3, Random(Shape{2, 0, 4}, 157), Random(Shape{2, 2, 4}, 158)});
  auto mismatched =
      RunNode(Dnnl(), "Y = Concat <axis = 0> (A, B)", 13, {x3, Random(Shape{2, 4, 4}, 159)});
  ASSERT_FALSE(mismatched.ok());
  EXPECT_THAT(mismatched.status().message(), HasSubstr("does not match input 0"));
}

Value Indices64(Shape shape, const std::vector<int64_t>& v) {
  return Value::FromTensor(Tensor::FromVector<int64_t>(std::move(shape), v));
}

// Gather along the first, a middle and the last axis, with int64 and int32 indices of rank 0 to
// 2, negative ones from Gather-11; an index out of range is an error, never a read.
TEST(DnnlGatherTest, AxesIndexTypesAndNegativeIndicesMatchRef) {
  const Value x = Random(Shape{5, 4, 3}, 160);
  ExpectMatchesRef("Y = Gather <axis = 0> (X, I)", 13,
                   {x, Indices64({2, 3}, {0, 4, -1, 2, -5, 1})});
  ExpectMatchesRef("Y = Gather <axis = 1> (X, I)", 13,
                   {x, TensorValue<int32_t>(Shape{4}, {3, -4, 0, 3})});
  ExpectMatchesRef("Y = Gather <axis = -1> (X, I)", 11, {x, Indices64({2}, {-1, 0})});
  ExpectMatchesRef("Y = Gather <axis = 1> (X, I)", 13, {x, Indices64({}, {2})});
  ExpectMatchesRef("Y = Gather (X, I)", 1, {x, TensorValue<int32_t>(Shape{2, 2}, {4, 0, 1, 1})});
  ExpectMatchesRef("Y = Gather <axis = 2> (X, I)", 13, {x, Indices64({0}, {})});

  auto past = RunNode(Dnnl(), "Y = Gather <axis = 1> (X, I)", 13, {x, Indices64({2}, {1, 4})});
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(past.status().message(), AllOf(HasSubstr("index 4"), HasSubstr("out of range")));
  auto below = RunNode(Dnnl(), "Y = Gather (X, I)", 13, {x, Indices64({1}, {-6})});
  ASSERT_FALSE(below.ok());
  EXPECT_THAT(below.status().message(), HasSubstr("index -6"));
  auto negative = RunNode(Dnnl(), "Y = Gather (X, I)", 9, {x, Indices64({1}, {-1})});
  ASSERT_FALSE(negative.ok());
  EXPECT_THAT(negative.status().message(), HasSubstr("negative indices exist from Gather-11"));
}

// Erf in float against ref and against erf in double, over the range where it bends and its
// tails; infinities give +-1, NaN stays NaN.
TEST(DnnlErfTest, MatchesRefAndDoublePrecision) {
  const Value x = Random(Shape{4, 64}, 170, -5.0f, 5.0f);
  ExpectMatchesRef("Y = Erf(X)", 13, {x}, 0.0f, 0.0f);
  ExpectMatchesRef("Y = Erf(X)", 9, {x}, 0.0f, 0.0f);
  const Tensor y = RunDnnl("Y = Erf(X)", 13, {x});
  ASSERT_EQ(y.shape(), x.tensor().shape());
  for (int64_t i = 0; i < y.NumElements(); ++i) {
    const double want = std::erf(static_cast<double>(x.tensor().data<float>()[i]));
    EXPECT_NEAR(y.data<float>()[i], want, 1e-7 + 1e-6 * std::fabs(want)) << "element " << i;
  }
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const Tensor special =
      RunDnnl("Y = Erf(X)", 13, {TensorValue<float>(Shape{3}, {kInf, -kInf, std::nanf("")})});
  ASSERT_EQ(special.NumElements(), 3);
  EXPECT_EQ(special.data<float>()[0], 1.0f);
  EXPECT_EQ(special.data<float>()[1], -1.0f);
  EXPECT_TRUE(std::isnan(special.data<float>()[2]));
}

// Identity hands a host tensor on as it is, and a tensor resident in a oneDNN layout on as the
// same resident tensor, without a reorder.
TEST(DnnlIdentityTest, HandsOnHostAndResidentTensors) {
  const Value x = Random(Shape{2, 8, 3, 3}, 180);
  for (int opset : {1, 13, 14, 16, 19, 21, 23, 24, 25}) {
    ExpectMatchesRef("Y = Identity(X)", opset, {x}, 0.0f, 0.0f);
  }

  auto context = DnnlContext::Create();
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  onnx::NodeProto node;
  ASSERT_TRUE(ParseNodeText("Y = Identity(X)", &node).ok());
  auto ref = BuiltinRefProvider();
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  auto kernel = IdentityKernel::Create(KernelInfo(node, 16, {DataType::kFloat}), *context, *ref);
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  EXPECT_EQ((*kernel)->resident_domain(), context->get());
  // x in nChw8c: 8 channels in one block.
  dnnl::memory::desc blocked({2, 8, 3, 3}, dnnl::memory::data_type::f32,
                             dnnl::memory::format_tag::nChw8c);
  dnnl::memory memory(blocked, (*context)->engine());
  float* data = static_cast<float*>(memory.get_data_handle());
  for (size_t i = 0; i < blocked.get_size() / sizeof(float); ++i) data[i] = 0.25f * i;
  const Value resident = Value::FromResident(
      std::make_shared<const DnnlResident>(*context, memory, Shape{2, 8, 3, 3}));
  KernelContext ctx({&resident}, 1, nullptr);
  ASSERT_TRUE((*kernel)->Compute(ctx).ok());
  const Value& y = ctx.outputs()[0];
  ASSERT_TRUE(y.is_resident());
  EXPECT_EQ(&y.resident(), &resident.resident());  // shared, not copied

  const Value host = Random(Shape{3}, 181);
  KernelContext host_ctx({&host}, 1, nullptr);
  ASSERT_TRUE((*kernel)->Compute(host_ctx).ok());
  ASSERT_TRUE(host_ctx.outputs()[0].is_tensor());
  EXPECT_EQ(host_ctx.outputs()[0].tensor().data<float>(), host.tensor().data<float>());
}

TEST(DnnlPoolTest, DeclinesMaxPoolIndices) {
  auto indices = RunNode(Dnnl(), "Y, I = MaxPool <kernel_shape = [2, 2]> (X)", 12,
                         {Random(Shape{1, 1, 4, 4}, 1)});
  ASSERT_FALSE(indices.ok());
  EXPECT_EQ(indices.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(indices.status().message(), HasSubstr("Indices output is not served"));
}

// Every schema version of every claimed range runs once against ref, with a node that uses the
// attributes and inputs that version defines.
TEST(DnnlKernelsTest, EveryClaimedSchemaVersionMatchesRef) {
  const Value x = Random(Shape{2, 3, 5, 5}, 500);
  const Value positive = Random(Shape{2, 3, 4}, 501, 0.1f, 5.0f);
  const Value row = Random(Shape{5}, 502);
  const std::map<std::string, std::pair<std::string, std::vector<Value>>> nodes = {
      {"Relu", {"Y = Relu(X)", {x}}},
      {"LeakyRelu", {"Y = LeakyRelu <alpha = 0.2> (X)", {x}}},
      {"Sigmoid", {"Y = Sigmoid(X)", {x}}},
      {"Tanh", {"Y = Tanh(X)", {x}}},
      {"Exp", {"Y = Exp(X)", {x}}},
      {"Log", {"Y = Log(X)", {positive}}},
      {"Sqrt", {"Y = Sqrt(X)", {positive}}},
      {"Abs", {"Y = Abs(X)", {x}}},
      {"Elu", {"Y = Elu <alpha = 0.5> (X)", {x}}},
      {"HardSigmoid", {"Y = HardSigmoid <alpha = 0.3> (X)", {x}}},
      {"Softplus", {"Y = Softplus(X)", {x}}},
      {"Gelu", {"Y = Gelu <approximate = \"tanh\"> (X)", {x}}},
      {"Add", {"Y = Add(A, B)", {x, row}}},
      {"Sub", {"Y = Sub(A, B)", {row, x}}},
      {"Mul", {"Y = Mul(A, B)", {x, row}}},
      {"Div", {"Y = Div(A, B)", {positive, positive}}},
      {"MatMul", {"Y = MatMul(A, B)", {x, Random(Shape{5, 2}, 503)}}},
      {"Gemm",
       {"Y = Gemm <transB = 1, alpha = 0.5, beta = 2.0> (A, B, C)",
        {Random(Shape{3, 4}, 504), Random(Shape{2, 4}, 505), Random(Shape{2}, 506)}}},
      {"Softmax", {"Y = Softmax <axis = 1> (X)", {x}}},
      {"LogSoftmax", {"Y = LogSoftmax <axis = 1> (X)", {x}}},
      {"Conv",
       {"Y = Conv <pads = [1, 1, 1, 1], strides = [2, 1]> (X, W, B)",
        {x, Random(Shape{4, 3, 3, 3}, 507), Random(Shape{4}, 508)}}},
      {"ConvTranspose",
       {"Y = ConvTranspose <strides = [2, 1], output_padding = [1, 0]> (X, W, B)",
        {x, Random(Shape{3, 2, 3, 3}, 516), Random(Shape{2}, 517)}}},
      {"MaxPool", {"Y = MaxPool <kernel_shape = [3, 2], pads = [1, 0, 1, 0]> (X)", {x}}},
      {"AveragePool", {"Y = AveragePool <kernel_shape = [2, 3], strides = [2, 2]> (X)", {x}}},
      {"GlobalMaxPool", {"Y = GlobalMaxPool(X)", {x}}},
      {"GlobalAveragePool", {"Y = GlobalAveragePool(X)", {x}}},
      {"Flatten", {"Y = Flatten <axis = 2> (X)", {x}}},
      {"Transpose", {"Y = Transpose <perm = [2, 0, 3, 1]> (X)", {x}}},
      {"Concat", {"Y = Concat <axis = 1> (A, B)", {x, Random(Shape{2, 2, 5, 5}, 515)}}},
      {"Reshape",
       {"Y = Reshape(X, S)", {x, Value::FromTensor(Tensor::FromVector<int64_t>({2}, {6, -1}))}}},
      {"Gather",
       {"Y = Gather <axis = 1> (X, I)",
        {x, Value::FromTensor(Tensor::FromVector<int64_t>({3}, {2, 0, 2}))}}},
      {"Erf", {"Y = Erf(X)", {x}}},
      {"Identity", {"Y = Identity(X)", {x}}},
      {"BatchNormalization",
       {"Y = BatchNormalization <epsilon = 0.01> (X, S, B, M, V)",
        {x, Random(Shape{3}, 511), Random(Shape{3}, 512), Random(Shape{3}, 513),
         Random(Shape{3}, 514, 0.1f, 2.0f)}}},
      {"LayerNormalization",
       {"Y, M, I = LayerNormalization <axis = 2, epsilon = 0.001> (X, S, B)",
        {x, Random(Shape{5, 5}, 509), Random(Shape{5}, 510)}}},
  };
  int runs = 0;
  for (const KernelDef* def : Dnnl().All()) {
    for (int version : SinceVersions(def->domain, def->op_type)) {
      if (version < def->since_version || version > def->until_version) continue;
      std::string node;
      std::vector<Value> inputs;
      if (def->op_type == "Clip") {  // bounds: attributes before 11, inputs from 11
        node = version < 11 ? "Y = Clip <min = -0.5, max = 0.5> (X)" : "Y = Clip(X, lo, hi)";
        inputs = {x, Scalar(-0.5f), Scalar(0.5f)};
      } else {
        auto it = nodes.find(def->op_type);
        ASSERT_NE(it, nodes.end()) << "no test node for " << def->op_type;
        std::tie(node, inputs) = it->second;
      }
      ExpectMatchesRef(node, version, inputs, 1e-4f, 1e-5f);
      ++runs;
    }
  }
  EXPECT_GE(runs, 50);
}

// A node whose input types are not known at load (inside an untyped subgraph) is declined: at
// run time it could bring any type, and only float32 is served.
TEST(DnnlKernelsTest, DeclinesANodeWhoseInputTypesAreUnknownAtLoad) {
  onnx::NodeProto node;
  ASSERT_TRUE(ParseNodeText("C = Sub(A, B)", &node).ok());
  auto def = Dnnl().Find("", "Sub", 14, {});
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  KernelInfo unknown(node, 14, {DataType::kUndefined, DataType::kFloat});
  auto declined = (*def)->factory(unknown);
  ASSERT_FALSE(declined.ok());
  EXPECT_EQ(declined.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(declined.status().message(), HasSubstr("input 0 is not known at load"));
  KernelInfo known(node, 14, {DataType::kFloat, DataType::kFloat});
  EXPECT_TRUE((*def)->factory(known).ok());
}

// Kernels of one provider share its engine and stream; many threads creating and running
// primitives on them at once (dnnl_provider_test.cc runs one kernel from many threads).
TEST(DnnlKernelsTest, KernelsOfOneEngineRunFromManyThreadsAtOnce) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 20; ++i) {
        const Value x = Random(Shape{2, 3 + t, 4}, static_cast<uint32_t>(100 + t));
        const Value w = Random(Shape{2, 3 + t, 3}, static_cast<uint32_t>(200 + t));
        if (!RunNode(Dnnl(), "Y = Conv(X, W)", 22, {x, w}).ok()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace onnxgate::dnnl_ep
