// The opencl kernels against the ref kernels (the oracle) on seeded random inputs: every claimed
// op, with the shape and attribute variants that change what runs on the device (broadcast
// patterns, batched and 1-D MatMul operands, transposes and C broadcasts in Gemm, Softmax axes
// before and from version 13, Conv's spatial ranks, groups, dilations, strides, pads and
// auto_pad), NaN propagation, empty tensors, declines at load and errors at run time. Every case
// runs twice: on host inputs, and on its float inputs already resident on the device (as the
// previous opencl node leaves them). Skipped where no OpenCL device is present.
#include "runtime/ep/opencl/opencl_kernels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <thread>

#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/opencl/opencl_resident.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::opencl_ep {
namespace {

using ::testing::HasSubstr;

// The context the registry's kernels launch on; null where there is no OpenCL device.
std::shared_ptr<const OpenClContext>& Device() {
  static std::shared_ptr<const OpenClContext> context;
  return context;
}

// The opencl registry, or nullptr (with the reason) where there is no OpenCL device.
const KernelRegistry* OpenCl(std::string* why_not = nullptr) {
  static std::string reason;
  static const KernelRegistry* registry = []() -> const KernelRegistry* {
    auto context = OpenClContext::Create();
    if (!context.ok()) {
      reason = context.status().ToString();
      return nullptr;
    }
    Device() = *context;
    auto* r = new KernelRegistry();
    Status st = RegisterOpenClKernels(*r, *context);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return r;
  }();
  if (why_not != nullptr) *why_not = reason;
  return registry;
}

// `v` as the opencl kernels leave a result: a float32 tensor with elements moves into a device
// buffer of the registry's context; anything else stays as it is (int64 axes and shapes are
// never resident, nor is a tensor with no elements).
Value OnDevice(const Value& v) {
  if (!v.is_tensor() || v.elem_type() != DataType::kFloat || v.tensor().NumElements() == 0) {
    return v;
  }
  const Tensor& t = v.tensor();
  auto buffer = Device()->NewBuffer(t.ByteSize(), t.raw_data());
  EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
  if (!buffer.ok()) return v;
  return Value::FromResident(std::make_shared<const OpenClResident>(Device(), *buffer, t.shape()));
}

#define REQUIRE_DEVICE()                              \
  do {                                                \
    std::string why;                                  \
    if (OpenCl(&why) == nullptr) GTEST_SKIP() << why; \
  } while (0)

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

// Every output of `got` against `want`: shapes equal, values within |o - r| <= atol + rtol * |r|,
// NaN only where ref has NaN, infinities equal.
void ExpectSameOutputs(const std::vector<Value>& got, const std::vector<Value>& want, float rtol,
                       float atol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < want.size(); ++o) {
    const Tensor& w = want[o].tensor();
    const Tensor& g = got[o].tensor();
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
        ADD_FAILURE() << "output " << o << " element " << i << ": opencl " << gd[i] << ", ref "
                      << wd[i];
      }
    }
  }
}

// Runs `node` on both registries and compares the outputs (ExpectSameOutputs); then once more
// on opencl with the float inputs resident on the device (OnDevice).
void ExpectMatchesRef(const std::string& node, int opset, const std::vector<Value>& inputs,
                      float rtol = 1e-5f, float atol = 1e-6f) {
  SCOPED_TRACE(node + " at opset " + std::to_string(opset));
  auto want = RunNode(Ref(), node, opset, inputs);
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  auto got = RunNode(*OpenCl(), node, opset, inputs);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectSameOutputs(*got, *want, rtol, atol);
  std::vector<Value> resident;
  for (const Value& v : inputs) resident.push_back(OnDevice(v));
  SCOPED_TRACE("with the float inputs on the device");
  auto got_resident = RunNode(*OpenCl(), node, opset, resident);
  ASSERT_TRUE(got_resident.ok()) << got_resident.status().ToString();
  ExpectSameOutputs(*got_resident, *want, rtol, atol);
}

TEST(OpenClKernelsTest, ActivationsMatchRef) {
  REQUIRE_DEVICE();
  const Value x = Random(Shape{2, 3, 5}, 1);
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp", "Abs", "Neg"}) {
    ExpectMatchesRef(std::string("Y = ") + op + "(X)", 13, {x});
  }
  ExpectMatchesRef("Y = Relu(X)", 14, {x});
  ExpectMatchesRef("Y = Relu(X)", 6, {x});
  const Value positive = Random(Shape{4, 7}, 2, 0.01f, 50.0f);
  ExpectMatchesRef("Y = Log(X)", 13, {positive});
  ExpectMatchesRef("Y = Sqrt(X)", 13, {positive});
  ExpectMatchesRef("Y = LeakyRelu(X)", 16, {x});
  ExpectMatchesRef("Y = LeakyRelu <alpha = 0.3> (X)", 16, {x});
  ExpectMatchesRef("Y = LeakyRelu <alpha = 0.3> (X)", 6, {x});
  // Scalars and large tensors take the same kernel.
  ExpectMatchesRef("Y = Sigmoid(X)", 13, {TensorValue<float>(Shape{}, {-0.5f})});
  ExpectMatchesRef("Y = Tanh(X)", 13, {Random(Shape{1000, 33}, 3)});
}

TEST(OpenClKernelsTest, ActivationsKeepNanAndHandleInfinities) {
  REQUIRE_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const Value x = TensorValue<float>(Shape{5}, {nan, inf, -inf, 0.0f, -0.0f});
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp", "Abs", "Neg", "LeakyRelu"}) {
    ExpectMatchesRef(std::string("Y = ") + op + "(X)", 16, {x});
  }
  const Value y = TensorValue<float>(Shape{4}, {nan, inf, 0.0f, -1.0f});
  ExpectMatchesRef("Y = Log(X)", 13, {y});
  ExpectMatchesRef("Y = Sqrt(X)", 13, {y});
}

TEST(OpenClKernelsTest, ArithmeticBroadcastsLikeNumpy) {
  REQUIRE_DEVICE();
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {Shape{3, 4}, Shape{3, 4}}, {Shape{2, 3, 4}, Shape{4}},
      {Shape{2, 3, 4}, Shape{}},  {Shape{}, Shape{2, 3}},
      {Shape{3, 1}, Shape{1, 4}}, {Shape{2, 1, 4}, Shape{3, 1}},
      {Shape{5}, Shape{2, 5}},    {Shape{1, 3, 1, 5}, Shape{2, 1, 4, 1}}};
  uint32_t seed = 10;
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    for (const auto& [a, b] : shapes) {
      ExpectMatchesRef(std::string("C = ") + op + "(A, B)", 14,
                       {Random(a, seed++), Random(b, seed++, 0.5f, 4.0f)});
    }
    ExpectMatchesRef(std::string("C = ") + op + "(A, B)", 7,
                     {Random(Shape{2, 3}, seed++), Random(Shape{3}, seed++, 0.5f, 4.0f)});
  }
  // Division by zero and NaN follow IEEE as numpy does.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ExpectMatchesRef("C = Div(A, B)", 14,
                   {TensorValue<float>(Shape{4}, {1.0f, -1.0f, 0.0f, nan}),
                    TensorValue<float>(Shape{4}, {0.0f, 0.0f, 0.0f, 1.0f})});
}

TEST(OpenClKernelsTest, ArithmeticRefusesShapesThatDoNotBroadcast) {
  REQUIRE_DEVICE();
  auto out = RunNode(*OpenCl(), "C = Add(A, B)", 14, {Random(Shape{2, 3}, 1), Random(Shape{4}, 2)});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  // The shape of a resident operand is checked as a host one's is.
  auto resident = RunNode(*OpenCl(), "C = Add(A, B)", 14,
                          {OnDevice(Random(Shape{2, 3}, 1)), Random(Shape{4}, 2)});
  ASSERT_FALSE(resident.ok());
  EXPECT_EQ(resident.status().code(), StatusCode::kInvalidArgument);
}

// The executor hands a kernel only its own context's resident tensors; one of another context
// (a buffer the kernel's context cannot use) is an error, not a launch.
TEST(OpenClKernelsTest, ATensorResidentInAnotherContextIsRefused) {
  REQUIRE_DEVICE();
  auto other = OpenClContext::Create();
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  const std::vector<float> x = {1.0f, -2.0f};
  auto buffer = (*other)->NewBuffer(8, x.data());
  ASSERT_TRUE(buffer.ok()) << buffer.status().ToString();
  const Value elsewhere =
      Value::FromResident(std::make_shared<const OpenClResident>(*other, *buffer, Shape{2}));
  auto out = RunNode(*OpenCl(), "Y = Relu(X)", 14, {elsewhere});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInternal);
  EXPECT_THAT(out.status().message(), HasSubstr("resident in another context's memory"));
}

TEST(OpenClKernelsTest, EmptyTensorsGiveEmptyResults) {
  REQUIRE_DEVICE();
  ExpectMatchesRef("Y = Relu(X)", 14, {TensorValue<float>(Shape{0, 3}, {})});
  ExpectMatchesRef("C = Add(A, B)", 14,
                   {TensorValue<float>(Shape{0, 3}, {}), Random(Shape{1, 3}, 4)});
  // K = 0: every product is an empty sum.
  ExpectMatchesRef("Y = MatMul(A, B)", 13,
                   {TensorValue<float>(Shape{2, 0}, {}), TensorValue<float>(Shape{0, 3}, {})});
}

TEST(OpenClKernelsTest, MatMulMatchesRef) {
  REQUIRE_DEVICE();
  const std::vector<std::pair<Shape, Shape>> shapes = {{Shape{3, 4}, Shape{4, 5}},
                                                       {Shape{2, 3, 4}, Shape{2, 4, 5}},
                                                       {Shape{2, 3, 4}, Shape{4, 5}},
                                                       {Shape{4}, Shape{4, 5}},
                                                       {Shape{3, 4}, Shape{4}},
                                                       {Shape{4}, Shape{4}},
                                                       {Shape{2, 1, 3, 4}, Shape{1, 5, 4, 2}},
                                                       {Shape{1, 64}, Shape{64, 70}}};
  uint32_t seed = 30;
  for (const auto& [a, b] : shapes) {
    ExpectMatchesRef("Y = MatMul(A, B)", 13, {Random(a, seed++), Random(b, seed++)}, 1e-5f, 1e-5f);
  }
  ExpectMatchesRef("Y = MatMul(A, B)", 1, {Random(Shape{2, 3}, 40), Random(Shape{3, 2}, 41)}, 1e-5f,
                   1e-5f);
  auto bad =
      RunNode(*OpenCl(), "Y = MatMul(A, B)", 13, {Random(Shape{2, 3}, 1), Random(Shape{4, 2}, 2)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("inner dims differ"));
}

TEST(OpenClKernelsTest, GemmMatchesRef) {
  REQUIRE_DEVICE();
  const Value a = Random(Shape{3, 4}, 50);
  const Value at = Random(Shape{4, 3}, 51);
  const Value b = Random(Shape{4, 5}, 52);
  const Value bt = Random(Shape{5, 4}, 53);
  ExpectMatchesRef("Y = Gemm(A, B, C)", 13, {a, b, Random(Shape{3, 5}, 54)}, 1e-5f, 1e-5f);
  ExpectMatchesRef("Y = Gemm <transA = 1> (A, B, C)", 13, {at, b, Random(Shape{5}, 55)}, 1e-5f,
                   1e-5f);
  ExpectMatchesRef("Y = Gemm <transB = 1> (A, B, C)", 13, {a, bt, Random(Shape{3, 1}, 56)}, 1e-5f,
                   1e-5f);
  ExpectMatchesRef("Y = Gemm <transA = 1, transB = 1, alpha = 0.5, beta = 2.0> (A, B, C)", 13,
                   {at, bt, Random(Shape{}, 57)}, 1e-5f, 1e-5f);
  ExpectMatchesRef("Y = Gemm(A, B)", 13, {a, b}, 1e-5f, 1e-5f);
  ExpectMatchesRef("Y = Gemm(A, B, C)", 7, {a, b, Random(Shape{1, 5}, 58)}, 1e-5f, 1e-5f);
  // beta = 0 drops C: an inf there does not reach Y.
  const float inf = std::numeric_limits<float>::infinity();
  ExpectMatchesRef("Y = Gemm <beta = 0.0> (A, B, C)", 13,
                   {a, b, TensorValue<float>(Shape{5}, {inf, inf, inf, inf, inf})}, 1e-5f, 1e-5f);
  auto bad = RunNode(*OpenCl(), "Y = Gemm(A, B, C)", 13, {a, b, Random(Shape{2, 5}, 59)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("does not broadcast"));
}

TEST(OpenClKernelsTest, SoftmaxMatchesRef) {
  REQUIRE_DEVICE();
  const Value x = Random(Shape{2, 3, 4}, 60, -20.0f, 20.0f);
  ExpectMatchesRef("Y = Softmax(X)", 13, {x});
  ExpectMatchesRef("Y = Softmax <axis = 0> (X)", 13, {x});
  ExpectMatchesRef("Y = Softmax <axis = 1> (X)", 13, {x});
  ExpectMatchesRef("Y = Softmax <axis = -2> (X)", 13, {x});
  // Before 13 the input is coerced to 2-D at axis (default 1).
  ExpectMatchesRef("Y = Softmax(X)", 11, {x});
  ExpectMatchesRef("Y = Softmax <axis = 2> (X)", 11, {x});
  ExpectMatchesRef("Y = Softmax <axis = 0> (X)", 1, {x});
  // Large inputs do not overflow.
  ExpectMatchesRef("Y = Softmax(X)", 13, {TensorValue<float>(Shape{3}, {1000.0f, 999.0f, 0.0f})});
}

Value Axes(std::vector<int64_t> axes) {
  const int64_t n = static_cast<int64_t>(axes.size());
  return TensorValue<int64_t>(Shape{n}, axes);
}

TEST(OpenClKernelsTest, ReductionsMatchRef) {
  REQUIRE_DEVICE();
  const Value x = Random(Shape{3, 4, 5}, 80);
  for (const char* op : {"ReduceSum", "ReduceMean"}) {
    const std::string n = op;
    // Axes as an attribute (ReduceSum to 12, ReduceMean to 17).
    ExpectMatchesRef("Y = " + n + " <axes = [1]> (X)", 11, {x});
    ExpectMatchesRef("Y = " + n + " <axes = [0, 2], keepdims = 0> (X)", 11, {x});
    ExpectMatchesRef("Y = " + n + " <axes = [-1]> (X)", 11, {x});
    ExpectMatchesRef("Y = " + n + " (X)", 1, {x});
    ExpectMatchesRef("Y = " + n + " <keepdims = 0> (X)", 11, {x});
  }
  // Axes as an input: ReduceSum-13, ReduceMean-18.
  const std::pair<const char*, int> with_input[] = {{"ReduceSum", 13}, {"ReduceMean", 18}};
  for (const auto& [op, opset] : with_input) {
    const std::string n = op;
    ExpectMatchesRef("Y = " + n + " (X, A)", opset, {x, Axes({1})});
    ExpectMatchesRef("Y = " + n + " <keepdims = 0> (X, A)", opset, {x, Axes({-1, 0})});
    ExpectMatchesRef("Y = " + n + " (X)", opset, {x});
    ExpectMatchesRef("Y = " + n + " (X, A)", opset, {x, Axes({})});
    ExpectMatchesRef("Y = " + n + " <noop_with_empty_axes = 1> (X, A)", opset, {x, Axes({})});
    // An empty set: the sum is 0 and the mean NaN.
    ExpectMatchesRef("Y = " + n + " (X, A)", opset,
                     {TensorValue<float>(Shape{2, 0, 3}, {}), Axes({1})});
    // A scalar reduces to itself.
    ExpectMatchesRef("Y = " + n + " (X)", opset, {TensorValue<float>(Shape{}, {2.5f})});
  }
  // An infinity makes the sum infinite (and -inf with it NaN), as IEEE addition does, whatever
  // follows it in the compensated sum.
  ExpectMatchesRef("Y = ReduceSum <axes = [1]> (X)", 11,
                   {TensorValue<float>(Shape{3, 4}, {1.0f, INFINITY, 2.0f, 3.0f,   //
                                                     -INFINITY, 1.0f, 1.0f, 1.0f,  //
                                                     INFINITY, 1.0f, -INFINITY, 1.0f})});
  // A long sum stays accurate in float (compensated summation).
  ExpectMatchesRef("Y = ReduceSum <keepdims = 0> (X)", 11, {Random(Shape{100000}, 81, 0.0f, 1.0f)},
                   1e-6f, 1e-6f);
  auto bad = RunNode(*OpenCl(), "Y = ReduceSum <axes = [3]> (X)", 11, {x});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(OpenClKernelsTest, MaxPoolMatchesRef) {
  REQUIRE_DEVICE();
  const Value x1 = Random(Shape{2, 3, 11}, 100);
  const Value x2 = Random(Shape{2, 3, 7, 8}, 101);
  const Value x3 = Random(Shape{1, 2, 5, 6, 7}, 102);
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3]> (X)", 22, {x1});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3], strides = [2], pads = [1, 2]> (X)", 12, {x1});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2, 2]> (X)", 1, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3, 2], strides = [2, 3]> (X)", 8, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (X)", 11, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2, 3], dilations = [2, 2]> (X)", 10, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (X)", 12,
                   {x2});
  ExpectMatchesRef(
      "Y = MaxPool <kernel_shape = [2, 2], strides = [3, 3], pads = [1, 0, 1, 1], "
      "ceil_mode = 1> (X)",
      22, {x2});
  ExpectMatchesRef(
      "Y = MaxPool <kernel_shape = [3, 3], auto_pad = \"SAME_UPPER\", "
      "strides = [2, 2]> (X)",
      12, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2, 3], auto_pad = \"SAME_LOWER\"> (X)", 12, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3, 3], auto_pad = \"VALID\", ceil_mode = 1> (X)",
                   12, {x2});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2, 3, 2]> (X)", 12, {x3});
  ExpectMatchesRef(
      "Y = MaxPool <kernel_shape = [3, 3, 3], strides = [2, 2, 2], "
      "pads = [1, 1, 1, 1, 1, 1], dilations = [1, 2, 1]> (X)",
      22, {x3});
  // Four spatial axes take the same kernel.
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2, 2, 2, 2], strides = [1, 2, 1, 2]> (X)", 12,
                   {Random(Shape{1, 2, 3, 4, 5, 4}, 103)});
  // An empty batch gives an empty result.
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2, 2]> (X)", 12,
                   {TensorValue<float>(Shape{0, 3, 4, 4}, {})});
}

TEST(OpenClKernelsTest, MaxPoolKeepsNanAsRefDoes) {
  REQUIRE_DEVICE();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // NaN first, last and alone in a window; infinities beside it.
  const Value x = TensorValue<float>(Shape{1, 1, 8}, {nan, 1.0f, 2.0f, nan, -inf, inf, 3.0f, nan});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [2]> (X)", 12, {x});
  ExpectMatchesRef("Y = MaxPool <kernel_shape = [3], pads = [1, 1]> (X)", 12, {x});
  ExpectMatchesRef("Y = GlobalMaxPool(X)", 1, {x});
  ExpectMatchesRef("Y = AveragePool <kernel_shape = [2]> (X)", 19, {x});
}

TEST(OpenClKernelsTest, AveragePoolMatchesRef) {
  REQUIRE_DEVICE();
  const Value x1 = Random(Shape{2, 3, 11}, 110);
  const Value x2 = Random(Shape{2, 3, 7, 8}, 111);
  const Value x3 = Random(Shape{1, 2, 5, 6, 7}, 112);
  ExpectMatchesRef("Y = AveragePool <kernel_shape = [3]> (X)", 1, {x1});
  ExpectMatchesRef("Y = AveragePool <kernel_shape = [4], strides = [3], pads = [2, 1]> (X)", 7,
                   {x1});
  for (int include : {0, 1}) {
    const std::string inc = "count_include_pad = " + std::to_string(include);
    ExpectMatchesRef(
        "Y = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], " + inc + "> (X)", 7, {x2});
    ExpectMatchesRef(
        "Y = AveragePool <kernel_shape = [3, 2], strides = [2, 2], "
        "pads = [1, 0, 2, 1], ceil_mode = 1, " +
            inc + "> (X)",
        10, {x2});
    ExpectMatchesRef(
        "Y = AveragePool <kernel_shape = [3, 3], strides = [3, 3], "
        "pads = [1, 1, 1, 1], ceil_mode = 1, " +
            inc + "> (X)",
        11, {x2});
    ExpectMatchesRef(
        "Y = AveragePool <kernel_shape = [2, 3], dilations = [2, 2], "
        "pads = [1, 1, 1, 1], " +
            inc + "> (X)",
        19, {x2});
    ExpectMatchesRef(
        "Y = AveragePool <kernel_shape = [3, 3], auto_pad = \"SAME_UPPER\", " + inc + "> (X)", 22,
        {x2});
    ExpectMatchesRef(
        "Y = AveragePool <kernel_shape = [2, 3, 3], strides = [1, 2, 2], "
        "pads = [1, 1, 1, 0, 1, 1], ceil_mode = 1, " +
            inc + "> (X)",
        22, {x3});
  }
  ExpectMatchesRef("Y = AveragePool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (X)",
                   10, {x2});
}

TEST(OpenClKernelsTest, GlobalPoolingMatchesRef) {
  REQUIRE_DEVICE();
  for (const char* op : {"GlobalMaxPool", "GlobalAveragePool"}) {
    const std::string n = op;
    ExpectMatchesRef("Y = " + n + "(X)", 1, {Random(Shape{2, 3, 9}, 120)});
    ExpectMatchesRef("Y = " + n + "(X)", 22, {Random(Shape{2, 3, 7, 8}, 121)});
    ExpectMatchesRef("Y = " + n + "(X)", 22, {Random(Shape{1, 4, 3, 5, 6}, 122)});
    ExpectMatchesRef("Y = " + n + "(X)", 22, {Random(Shape{1, 2, 300, 300}, 123, 0.0f, 1.0f)});
  }
}

TEST(OpenClKernelsTest, PoolingDeclinesAndRefusesAsRefDoes) {
  REQUIRE_DEVICE();
  // The Indices output is declined at load, so the node runs on ref.
  auto indices = RunNode(*OpenCl(), "Y, I = MaxPool <kernel_shape = [2, 2]> (X)", 12,
                         {Random(Shape{1, 1, 4, 4}, 130)});
  ASSERT_FALSE(indices.ok());
  EXPECT_EQ(indices.status().code(), StatusCode::kUnimplemented);
  EXPECT_THAT(indices.status().message(), HasSubstr("Indices"));
  // Attributes a version does not define are refused by ref's parser.
  auto dilated = RunNode(*OpenCl(), "Y = AveragePool <kernel_shape = [2], dilations = [2]> (X)", 11,
                         {Random(Shape{1, 1, 6}, 131)});
  ASSERT_FALSE(dilated.ok());
  EXPECT_EQ(dilated.status().code(), StatusCode::kInvalidArgument);
  // A window of padding alone has no max.
  const Value x = Random(Shape{1, 1, 2, 2}, 132);
  const std::string padded = "Y = MaxPool <kernel_shape = [2, 2], pads = [3, 0, 0, 0]> (X)";
  auto want = RunNode(Ref(), padded, 12, {x});
  auto got = RunNode(*OpenCl(), padded, 12, {x});
  ASSERT_FALSE(want.ok());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), HasSubstr("covers only padding"));
  auto flat =
      RunNode(*OpenCl(), "Y = MaxPool <kernel_shape = [2]> (X)", 12, {Random(Shape{3, 4}, 133)});
  ASSERT_FALSE(flat.ok());
  EXPECT_THAT(flat.status().message(), HasSubstr("rank >= 3"));
}

TEST(OpenClKernelsTest, TransposeConcatReshapeAndFlattenMatchRef) {
  REQUIRE_DEVICE();
  const Value x = Random(Shape{2, 3, 4}, 90);
  ExpectMatchesRef("Y = Transpose(X)", 13, {x});
  ExpectMatchesRef("Y = Transpose <perm = [1, 0, 2]> (X)", 13, {x});
  ExpectMatchesRef("Y = Transpose <perm = [2, 0, 1]> (X)", 25, {x});
  ExpectMatchesRef("Y = Transpose <perm = [0, 1, 2]> (X)", 1, {x});
  ExpectMatchesRef("Y = Transpose(X)", 13, {TensorValue<float>(Shape{}, {3.0f})});
  auto bad = RunNode(*OpenCl(), "Y = Transpose <perm = [0, 0, 1]> (X)", 13, {x});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("is not a permutation"));

  const Value y = Random(Shape{2, 5, 4}, 91);
  const Value z = Random(Shape{2, 1, 4}, 92);
  ExpectMatchesRef("Y = Concat <axis = 1> (A, B, C)", 13, {x, y, z});
  ExpectMatchesRef("Y = Concat <axis = -2> (A, B, C)", 13, {x, y, z});
  ExpectMatchesRef("Y = Concat <axis = 0> (A, B)", 4, {x, x});
  ExpectMatchesRef("Y = Concat <axis = 2> (A, B)", 11, {x, Random(Shape{2, 3, 1}, 93)});
  ExpectMatchesRef("Y = Concat <axis = 1> (A, B)", 13, {x, TensorValue<float>(Shape{2, 0, 4}, {})});
  auto mismatch =
      RunNode(*OpenCl(), "Y = Concat <axis = 1> (A, B)", 13, {x, Random(Shape{3, 3, 4}, 94)});
  ASSERT_FALSE(mismatch.ok());
  EXPECT_THAT(mismatch.status().message(), HasSubstr("does not match input 0"));

  ExpectMatchesRef("Y = Reshape(X, S)", 13, {x, Axes({4, -1})});
  ExpectMatchesRef("Y = Reshape(X, S)", 14, {x, Axes({0, 12})});
  ExpectMatchesRef("Y = Reshape <allowzero = 1> (X, S)", 14,
                   {TensorValue<float>(Shape{0, 3}, {}), Axes({3, 0})});
  // Flatten: the default axis 1, axis 0, and a negative axis from Flatten-11.
  const Value x4 = Random(Shape{2, 3, 4, 5}, 99);
  ExpectMatchesRef("Y = Flatten(X)", 9, {x4});
  ExpectMatchesRef("Y = Flatten <axis = 0> (X)", 13, {x4});
  ExpectMatchesRef("Y = Flatten <axis = -2> (X)", 13, {x4});
  auto bad_axis = RunNode(*OpenCl(), "Y = Flatten <axis = 5> (X)", 13, {x4});
  ASSERT_FALSE(bad_axis.ok());
  EXPECT_EQ(bad_axis.status().code(), StatusCode::kInvalidArgument);
}

TEST(OpenClKernelsTest, ConvMatchesRef) {
  REQUIRE_DEVICE();
  // Products accumulate in float here, in double on ref.
  const float rtol = 1e-4f, atol = 1e-4f;
  // 1-D, with and without bias, and at Conv-22.
  const Value x1 = Random(Shape{2, 3, 11}, 300);
  const Value w1 = Random(Shape{4, 3, 3}, 301);
  const Value b4 = Random(Shape{4}, 302);
  ExpectMatchesRef("Y = Conv(X, W)", 11, {x1, w1}, rtol, atol);
  ExpectMatchesRef("Y = Conv(X, W, B)", 11, {x1, w1, b4}, rtol, atol);
  ExpectMatchesRef("Y = Conv <kernel_shape = [3]> (X, W, B)", 22, {x1, w1, b4}, rtol, atol);
  // 2-D: group 2, depthwise, dilations, strides with asymmetric pads.
  const Value x2 = Random(Shape{2, 4, 7, 6}, 303);
  const Value wg = Random(Shape{6, 2, 3, 2}, 304);
  const Value b6 = Random(Shape{6}, 305);
  ExpectMatchesRef("Y = Conv <group = 2> (X, W, B)", 11, {x2, wg, b6}, rtol, atol);
  const Value wd = Random(Shape{4, 1, 3, 3}, 306);
  ExpectMatchesRef("Y = Conv <group = 4, pads = [1, 1, 1, 1]> (X, W)", 11, {x2, wd}, rtol, atol);
  const Value w2 = Random(Shape{3, 4, 3, 3}, 307);
  ExpectMatchesRef("Y = Conv <dilations = [2, 1]> (X, W)", 11, {x2, w2}, rtol, atol);
  ExpectMatchesRef("Y = Conv <strides = [2, 3], pads = [1, 0, 2, 1]> (X, W)", 11, {x2, w2}, rtol,
                   atol);
  ExpectMatchesRef("Y = Conv <strides = [2, 2], dilations = [2, 2], pads = [2, 1, 0, 2]> (X, W)",
                   11, {x2, w2}, rtol, atol);
  // auto_pad: the odd padding at the end (SAME_UPPER) or the beginning (SAME_LOWER), or none.
  const Value w22 = Random(Shape{3, 4, 2, 2}, 308);
  for (const char* pad : {"SAME_UPPER", "SAME_LOWER", "VALID"}) {
    for (const char* strides : {"[1, 1]", "[2, 3]"}) {
      ExpectMatchesRef(
          std::string("Y = Conv <auto_pad = \"") + pad + "\", strides = " + strides + "> (X, W)",
          11, {x2, w22}, rtol, atol);
    }
  }
  // 3-D with bias.
  const Value x3 = Random(Shape{1, 2, 5, 4, 6}, 309);
  const Value w3 = Random(Shape{3, 2, 2, 3, 2}, 310);
  const Value b3 = Random(Shape{3}, 311);
  ExpectMatchesRef("Y = Conv <pads = [1, 0, 1, 0, 1, 1], strides = [1, 2, 2]> (X, W, B)", 11,
                   {x3, w3, b3}, rtol, atol);
  // An empty batch gives an empty Y.
  ExpectMatchesRef("Y = Conv(X, W)", 11, {Random(Shape{0, 3, 11}, 312), w1}, rtol, atol);
}

TEST(OpenClKernelsTest, ConvRefusesWhatRefRefuses) {
  REQUIRE_DEVICE();
  // W's channels do not match X's with group 2.
  auto bad = RunNode(*OpenCl(), "Y = Conv <group = 2> (X, W)", 11,
                     {Random(Shape{1, 4, 5, 5}, 320), Random(Shape{2, 4, 3, 3}, 321)});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("W[1] = C / group"));
  // Conv-1 is not claimed.
  auto old = RunNode(*OpenCl(), "Y = Conv(X, W)", 1,
                     {Random(Shape{1, 1, 5}, 322), Random(Shape{1, 1, 3}, 323)});
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), StatusCode::kUnimplemented);
}

TEST(OpenClKernelsTest, OtherTypesAreDeclinedAtLoad) {
  REQUIRE_DEVICE();
  const std::vector<double> v = {1.0, -2.0};
  auto out = RunNode(*OpenCl(), "Y = Relu(X)", 14, {TensorValue<double>(Shape{2}, v)});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kUnimplemented);
  // A version the table does not claim is declined too (Relu-1 has consumed_inputs).
  auto old = RunNode(*OpenCl(), "Y = Relu(X)", 1, {Random(Shape{2}, 1)});
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), StatusCode::kUnimplemented);
}

TEST(OpenClKernelsTest, KernelsRunFromManyThreadsAtOnce) {
  REQUIRE_DEVICE();
  const Value a = Random(Shape{16, 32}, 70);
  const Value b = Random(Shape{32, 8}, 71);
  auto want = RunNode(Ref(), "Y = MatMul(A, B)", 13, {a, b});
  ASSERT_TRUE(want.ok());
  std::vector<int> good(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        auto got = RunNode(*OpenCl(), "Y = MatMul(A, B)", 13, {a, b});
        if (!got.ok()) continue;
        const Tensor& g = (*got)[0].tensor();
        const Tensor& w = (*want)[0].tensor();
        bool same = g.shape() == w.shape();
        for (int64_t e = 0; same && e < w.NumElements(); ++e) {
          same = std::fabs(g.data<float>()[e] - w.data<float>()[e]) <= 1e-4f;
        }
        good[t] += same;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(good[t], 20) << "thread " << t;
}

}  // namespace
}  // namespace onnxgate::opencl_ep
