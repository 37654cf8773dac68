// Tests of the Reduce* family: axes as attribute and as input, negative axes, keepdims,
// noop_with_empty_axes, empty sets, integer semantics and NaN.
#include "runtime/ep/ref/kernels/reduction/reduce.h"

#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::IsEmpty;
using ::testing::Pointwise;

class ReduceTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  // [[1, 2, 3], [4, 5, 6]]
  Value x23_ = TensorValue<float>({2, 3}, {1, 2, 3, 4, 5, 6});
};

TEST_F(ReduceTest, SumOverAxisAttributeKeepsDims) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ReduceSum <axes = [1]> (X)", 11, {x23_}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 1));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(6, 15));
}

TEST_F(ReduceTest, SumAxesInputWithoutKeepdims) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ReduceSum <keepdims = 0> (X, axes)", 13,
                                         {x23_, TensorValue<int64_t>({1}, {0})}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(3));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(5, 7, 9));
}

TEST_F(ReduceTest, NegativeAxesFromOpset11Only) {
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "Y = ReduceMean <axes = [-1], keepdims = 0> (X)", 11, {x23_}));
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(2, 5));
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceMean <axes = [-1]> (X)", 1, {x23_}),
                    kInvalidArgument);
}

TEST_F(ReduceTest, AxesOutOfRangeOrRepeatedAreErrors) {
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceMax <axes = [2]> (X)", 13, {x23_}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceMax <axes = [1, -1]> (X)", 13, {x23_}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ReduceSum (X, axes)", 13, {x23_, TensorValue<int64_t>({1}, {-3})}),
      kInvalidArgument);
}

TEST_F(ReduceTest, EmptyAxesReduceEverythingUnlessNoop) {
  ASSERT_OK_AND_ASSIGN(auto all, RunNode(registry_, "Y = ReduceSum (X, axes)", 13,
                                         {x23_, TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(DimsOf(all[0]), ElementsAre(1, 1));
  EXPECT_THAT(ValuesOf<float>(all[0]), ElementsAre(21));
  ASSERT_OK_AND_ASSIGN(auto omitted,
                       RunNode(registry_, "Y = ReduceSum <keepdims = 0> (X)", 13, {x23_}));
  EXPECT_THAT(DimsOf(omitted[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<float>(omitted[0]), ElementsAre(21));
  ASSERT_OK_AND_ASSIGN(auto noop,
                       RunNode(registry_, "Y = ReduceSum <noop_with_empty_axes = 1> (X, axes)", 13,
                               {x23_, TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(DimsOf(noop[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<float>(noop[0]), ElementsAre(1, 2, 3, 4, 5, 6));
  ASSERT_OK_AND_ASSIGN(
      auto noop_omitted,
      RunNode(registry_, "Y = ReduceSum <noop_with_empty_axes = 1> (X)", 13, {x23_}));
  EXPECT_THAT(DimsOf(noop_omitted[0]), ElementsAre(2, 3));
  // Without axes, attribute-form ops reduce everything.
  ASSERT_OK_AND_ASSIGN(auto prod, RunNode(registry_, "Y = ReduceProd (X)", 13, {x23_}));
  EXPECT_THAT(ValuesOf<float>(prod[0]), ElementsAre(720));
}

TEST_F(ReduceTest, EveryOpOnOneRow) {
  Value x = TensorValue<float>({1, 3}, {-1, 2, -2});
  auto run = [&](const std::string& op) {
    auto out = RunNode(registry_, "Y = " + op + " <axes = [1], keepdims = 0> (X)", 13, {x});
    EXPECT_TRUE(out.ok()) << op << ": " << out.status().ToString();
    return out.ok() ? ValuesOf<float>((*out)[0])[0] : NAN;
  };
  EXPECT_FLOAT_EQ(run("ReduceMax"), 2);
  EXPECT_FLOAT_EQ(run("ReduceMin"), -2);
  EXPECT_FLOAT_EQ(run("ReduceMean"), -1.0f / 3);
  EXPECT_FLOAT_EQ(run("ReduceProd"), 4);
  EXPECT_FLOAT_EQ(run("ReduceL1"), 5);
  EXPECT_FLOAT_EQ(run("ReduceL2"), 3);
  EXPECT_FLOAT_EQ(run("ReduceSumSquare"), 9);
  EXPECT_FLOAT_EQ(run("ReduceLogSumExp"),
                  std::log(std::exp(-1.0) + std::exp(2.0) + std::exp(-2.0)));
  Value pos = TensorValue<float>({1, 3}, {1, 2, 4});
  ASSERT_OK_AND_ASSIGN(auto log_sum,
                       RunNode(registry_, "Y = ReduceLogSum <axes = [1]> (X)", 13, {pos}));
  EXPECT_FLOAT_EQ(ValuesOf<float>(log_sum[0])[0], std::log(7.0f));
}

TEST_F(ReduceTest, LogSumExpDoesNotOverflow) {
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ReduceLogSumExp <keepdims = 0> (X)", 13,
                                         {TensorValue<float>({2}, {1000, 1000})}));
  EXPECT_FLOAT_EQ(ValuesOf<float>(out[0])[0], 1000 + std::log(2.0f));
}

TEST_F(ReduceTest, MiddleAxesOfA3dTensor) {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ReduceSum <axes = [0, 2]> (X)", 11,
                                         {TensorValue<double>({2, 3, 4}, v)}));
  EXPECT_THAT(DimsOf(out[0]), ElementsAre(1, 3, 1));
  std::vector<double> expected;
  for (int j = 0; j < 3; ++j) {
    double s = 0;
    for (int i = 0; i < 2; ++i) {
      for (int k = 0; k < 4; ++k) s += i * 12 + j * 4 + k;
    }
    expected.push_back(s);
  }
  EXPECT_THAT(ValuesOf<double>(out[0]), Pointwise(DoubleNear(0), expected));
}

TEST_F(ReduceTest, EmptySetReductionsFollowTheMath) {
  Value empty = TensorValue<float>({2, 0}, {});
  auto reduce = [&](const std::string& op) {
    auto out = RunNode(registry_, "Y = " + op + " <axes = [1]> (X)", 13, {empty});
    EXPECT_TRUE(out.ok()) << op << ": " << out.status().ToString();
    if (!out.ok()) return std::vector<float>{};
    EXPECT_THAT(DimsOf((*out)[0]), ElementsAre(2, 1)) << op;
    return ValuesOf<float>((*out)[0]);
  };
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_THAT(reduce("ReduceSumSquare"), ElementsAre(0, 0));
  EXPECT_THAT(reduce("ReduceL1"), ElementsAre(0, 0));
  EXPECT_THAT(reduce("ReduceL2"), ElementsAre(0, 0));
  EXPECT_THAT(reduce("ReduceProd"), ElementsAre(1, 1));
  EXPECT_THAT(reduce("ReduceMax"), ElementsAre(-inf, -inf));
  EXPECT_THAT(reduce("ReduceMin"), ElementsAre(inf, inf));
  EXPECT_THAT(reduce("ReduceLogSum"), ElementsAre(-inf, -inf));
  EXPECT_THAT(reduce("ReduceLogSumExp"), ElementsAre(-inf, -inf));
  EXPECT_TRUE(std::isnan(reduce("ReduceMean")[0]));
  ASSERT_OK_AND_ASSIGN(auto sum, RunNode(registry_, "Y = ReduceSum (X, axes)", 13,
                                         {empty, TensorValue<int64_t>({1}, {1})}));
  EXPECT_THAT(ValuesOf<float>(sum[0]), ElementsAre(0, 0));
  // Reducing the non-empty axis of an empty tensor gives an empty result.
  ASSERT_OK_AND_ASSIGN(auto none,
                       RunNode(registry_, "Y = ReduceMax <axes = [0]> (X)", 13, {empty}));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(1, 0));
  ASSERT_OK_AND_ASSIGN(auto imax, RunNode(registry_, "Y = ReduceMax <axes = [1]> (X)", 13,
                                          {TensorValue<int32_t>({1, 0}, {})}));
  EXPECT_THAT(ValuesOf<int32_t>(imax[0]), ElementsAre(std::numeric_limits<int32_t>::lowest()));
}

TEST_F(ReduceTest, IntegersWrapAndTruncate) {
  Value x = TensorValue<int32_t>({3}, {INT32_MAX, 1, 2});
  ASSERT_OK_AND_ASSIGN(auto sum, RunNode(registry_, "Y = ReduceSum <keepdims = 0> (X)", 13, {x}));
  EXPECT_THAT(ValuesOf<int32_t>(sum[0]), ElementsAre(INT32_MIN + 2));
  ASSERT_OK_AND_ASSIGN(auto mean, RunNode(registry_, "Y = ReduceMean <keepdims = 0> (X)", 13,
                                          {TensorValue<int64_t>({2}, {-3, -4})}));
  EXPECT_THAT(ValuesOf<int64_t>(mean[0]), ElementsAre(-3));  // -3.5 truncates toward zero
  ASSERT_OK_AND_ASSIGN(auto l2, RunNode(registry_, "Y = ReduceL2 <keepdims = 0> (X)", 13,
                                        {TensorValue<int64_t>({2}, {3, 4})}));
  EXPECT_THAT(ValuesOf<int64_t>(l2[0]), ElementsAre(5));
  ASSERT_OK_AND_ASSIGN(auto l1, RunNode(registry_, "Y = ReduceL1 <keepdims = 0> (X)", 13,
                                        {TensorValue<int64_t>({2}, {-3, 4})}));
  EXPECT_THAT(ValuesOf<int64_t>(l1[0]), ElementsAre(7));
  ASSERT_OK_AND_ASSIGN(auto umin, RunNode(registry_, "Y = ReduceMin <keepdims = 0> (X)", 13,
                                          {TensorValue<uint8_t>({3}, {7, 3, 9})}));
  EXPECT_THAT(ValuesOf<uint8_t>(umin[0]), ElementsAre(3));
}

TEST_F(ReduceTest, MaxAndMinPropagateNan) {
  Value x = TensorValue<float>({3}, {1, NAN, 3});
  ASSERT_OK_AND_ASSIGN(auto mx, RunNode(registry_, "Y = ReduceMax (X)", 13, {x}));
  EXPECT_TRUE(std::isnan(ValuesOf<float>(mx[0])[0]));
  ASSERT_OK_AND_ASSIGN(auto mn, RunNode(registry_, "Y = ReduceMin (X)", 13, {x}));
  EXPECT_TRUE(std::isnan(ValuesOf<float>(mn[0])[0]));
}

TEST_F(ReduceTest, HalfTypesAccumulateWide) {
  // 4096 halves of 1: a float16 running sum would stick at 2048.
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ReduceSum <keepdims = 0> (X)", 13,
                                         {HalfValue({4096}, std::vector<float>(4096, 1.0f))}));
  EXPECT_THAT(HalfValuesOf<Float16>(out[0]), ElementsAre(4096));
  ASSERT_OK_AND_ASSIGN(auto bf, RunNode(registry_, "Y = ReduceMean <axes = [0]> (X)", 13,
                                        {BFloat16Value({2, 2}, {1, 2, 3, 4})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(2, 3));
}

TEST_F(ReduceTest, ScalarInputReducesToItself) {
  ASSERT_OK_AND_ASSIGN(auto out,
                       RunNode(registry_, "Y = ReduceL2 (X)", 13, {TensorValue<float>({}, {-3})}));
  EXPECT_THAT(DimsOf(out[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<float>(out[0]), ElementsAre(3));
}

TEST_F(ReduceTest, TypeListsFollowTheVersions) {
  // int8 arrives with ReduceMax-12; bfloat16 with opset 13.
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceMax (X)", 11, {TensorValue<int8_t>({1}, {1})}),
                    kUnimplemented);
  EXPECT_TRUE(RunNode(registry_, "Y = ReduceMax (X)", 12, {TensorValue<int8_t>({1}, {1})}).ok());
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceSum (X)", 12, {BFloat16Value({1}, {1})}),
                    kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceSum (X)", 13, {TensorValue<int8_t>({1}, {1})}),
                    kUnimplemented);
}

TEST_F(ReduceTest, Opset18TakesAxesAsAnInputForEveryOp) {
  Value axes1 = TensorValue<int64_t>({1}, {1});
  ASSERT_OK_AND_ASSIGN(
      auto mean, RunNode(registry_, "Y = ReduceMean <keepdims = 0> (X, axes)", 18, {x23_, axes1}));
  EXPECT_THAT(ValuesOf<float>(mean[0]), ElementsAre(2, 5));
  ASSERT_OK_AND_ASSIGN(auto max, RunNode(registry_, "Y = ReduceMax (X, axes)", 18,
                                         {x23_, TensorValue<int64_t>({1}, {-2})}));
  EXPECT_THAT(DimsOf(max[0]), ElementsAre(1, 3));
  EXPECT_THAT(ValuesOf<float>(max[0]), ElementsAre(4, 5, 6));
  ASSERT_OK_AND_ASSIGN(auto all, RunNode(registry_, "Y = ReduceSumSquare (X)", 18, {x23_}));
  EXPECT_THAT(DimsOf(all[0]), ElementsAre(1, 1));
  EXPECT_THAT(ValuesOf<float>(all[0]), ElementsAre(91));
  ASSERT_OK_AND_ASSIGN(
      auto noop, RunNode(registry_, "Y = ReduceL1 <noop_with_empty_axes = 1> (X)", 18, {x23_}));
  EXPECT_THAT(DimsOf(noop[0]), ElementsAre(2, 3));
  ASSERT_OK_AND_ASSIGN(auto empty_axes,
                       RunNode(registry_, "Y = ReduceProd <keepdims = 0> (X, axes)", 18,
                               {x23_, TensorValue<int64_t>({0}, {})}));
  EXPECT_THAT(ValuesOf<float>(empty_axes[0]), ElementsAre(720));
}

TEST_F(ReduceTest, Opset18RejectsBadAxesInputs) {
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ReduceL2 (X, axes)", 18, {x23_, TensorValue<int64_t>({1}, {2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(
      RunNode(registry_, "Y = ReduceMin (X, axes)", 18, {x23_, TensorValue<int64_t>({2}, {0, -2})}),
      kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceLogSum (X, axes)", 18,
                            {x23_, TensorValue<int64_t>({1, 1}, {0})}),
                    kInvalidArgument);
}

TEST_F(ReduceTest, MaxAndMinOfBoolFromOpset20) {
  Value b = TensorValue<bool>({2, 3}, {false, true, false, true, true, true});
  Value axes1 = TensorValue<int64_t>({1}, {1});
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceMax (X, axes)", 18, {b, axes1}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(
      auto max, RunNode(registry_, "Y = ReduceMax <keepdims = 0> (X, axes)", 20, {b, axes1}));
  EXPECT_THAT(ValuesOf<bool>(max[0]), ElementsAre(true, true));
  ASSERT_OK_AND_ASSIGN(
      auto min, RunNode(registry_, "Y = ReduceMin <keepdims = 0> (X, axes)", 20, {b, axes1}));
  EXPECT_THAT(ValuesOf<bool>(min[0]), ElementsAre(false, true));
  // Over an empty set: the identities false (max) and true (min).
  Value empty = TensorValue<bool>({2, 0}, {});
  ASSERT_OK_AND_ASSIGN(
      auto emax, RunNode(registry_, "Y = ReduceMax <keepdims = 0> (X, axes)", 20, {empty, axes1}));
  EXPECT_THAT(ValuesOf<bool>(emax[0]), ElementsAre(false, false));
  ASSERT_OK_AND_ASSIGN(
      auto emin, RunNode(registry_, "Y = ReduceMin <keepdims = 0> (X, axes)", 20, {empty, axes1}));
  EXPECT_THAT(ValuesOf<bool>(emin[0]), ElementsAre(true, true));
  Tensor t = Tensor::FromVector<bool>({2}, {true, false});
  EXPECT_ERROR_CODE(Reduce(ReduceOp::kSum, t, {}, false), kUnimplemented);
}

TEST_F(ReduceTest, LogSumAndLogSumExpAreFloatOnlyFromOpset28) {
  Value i = TensorValue<int32_t>({2}, {1, 2});
  EXPECT_TRUE(RunNode(registry_, "Y = ReduceLogSum (X)", 18, {i}).ok());
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceLogSum (X)", 28, {i}), kUnimplemented);
  EXPECT_ERROR_CODE(RunNode(registry_, "Y = ReduceLogSumExp (X)", 28, {i}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, "Y = ReduceLogSumExp <keepdims = 0> (X)", 28,
                                         {TensorValue<double>({2}, {1000, 1000})}));
  EXPECT_THAT(ValuesOf<double>(out[0]), ElementsAre(DoubleNear(1000 + std::log(2.0), 1e-9)));
  ASSERT_OK_AND_ASSIGN(auto bf, RunNode(registry_, "Y = ReduceLogSum <keepdims = 0> (X)", 28,
                                        {BFloat16Value({2}, {1, 0})}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(bf[0]), ElementsAre(0));
}

// noop_with_empty_axes without axes skips only the summation: every composite reduction keeps its
// other steps, as ONNX's function bodies and ONNX Runtime do.
TEST_F(ReduceTest, NoopWithEmptyAxesKeepsTheNonReductionSteps) {
  Value x = TensorValue<float>({2, 3}, {-2, -1, 0.5, 1, 2, 4});
  struct Expected {
    const char* op;
    std::vector<float> y;
  };
  const std::vector<Expected> cases = {
      {"ReduceSum", {-2, -1, 0.5, 1, 2, 4}},       {"ReduceMean", {-2, -1, 0.5, 1, 2, 4}},
      {"ReduceMax", {-2, -1, 0.5, 1, 2, 4}},       {"ReduceMin", {-2, -1, 0.5, 1, 2, 4}},
      {"ReduceProd", {-2, -1, 0.5, 1, 2, 4}},      {"ReduceSumSquare", {4, 1, 0.25, 1, 4, 16}},
      {"ReduceL1", {2, 1, 0.5, 1, 2, 4}},          {"ReduceL2", {2, 1, 0.5, 1, 2, 4}},
      {"ReduceLogSumExp", {-2, -1, 0.5, 1, 2, 4}},
  };
  for (const Expected& e : cases) {
    for (const char* keepdims : {"0", "1"}) {
      const std::string attributes =
          std::string(" <keepdims = ") + keepdims + ", noop_with_empty_axes = 1> ";
      const std::string node = std::string("Y = ") + e.op + attributes + "(X)";
      ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, node, 18, {x}));
      EXPECT_THAT(DimsOf(out[0]), ElementsAre(2, 3)) << node;
      EXPECT_THAT(ValuesOf<float>(out[0]), Pointwise(FloatNear(1e-6), e.y)) << node;
      // An empty axes input is the same as none.
      const std::string with_axes = std::string("Y = ") + e.op + attributes + "(X, axes)";
      ASSERT_OK_AND_ASSIGN(auto empty,
                           RunNode(registry_, with_axes, 18, {x, TensorValue<int64_t>({0}, {})}));
      EXPECT_THAT(ValuesOf<float>(empty[0]), Pointwise(FloatNear(1e-6), e.y)) << with_axes;
    }
  }
  ASSERT_OK_AND_ASSIGN(auto log_sum,
                       RunNode(registry_, "Y = ReduceLogSum <noop_with_empty_axes = 1> (X)", 18,
                               {TensorValue<float>({3}, {1, 2, 4})}));
  EXPECT_THAT(ValuesOf<float>(log_sum[0]),
              Pointwise(FloatNear(1e-6), {0.0f, std::log(2.0f), std::log(4.0f)}));
  Value ints = TensorValue<int32_t>({3}, {-3, 0, 5});
  ASSERT_OK_AND_ASSIGN(
      auto sum_square,
      RunNode(registry_, "Y = ReduceSumSquare <noop_with_empty_axes = 1> (X)", 18, {ints}));
  EXPECT_THAT(ValuesOf<int32_t>(sum_square[0]), ElementsAre(9, 0, 25));
  ASSERT_OK_AND_ASSIGN(
      auto l1, RunNode(registry_, "Y = ReduceL1 <noop_with_empty_axes = 1> (X)", 18, {ints}));
  EXPECT_THAT(ValuesOf<int32_t>(l1[0]), ElementsAre(3, 0, 5));
}

}  // namespace
}  // namespace onnxgate::ref
