// Tests of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: reductions, weights,
// ignore_index, extra dims, the log_prob output and bad targets.
#include "runtime/ep/ref/kernels/math/loss.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pointwise;

class LossTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);
  // N = 2, C = 3 log-probabilities (any numbers serve).
  Value input_ = TensorValue<double>({2, 3}, {-1, -2, -3, -4, -5, -6});
  Value target_ = TensorValue<int64_t>({2}, {2, 0});
  Value weight_ = TensorValue<double>({3}, {0.5, 1, 2});
};

TEST_F(LossTest, NllReductions) {
  ASSERT_OK_AND_ASSIGN(auto none, RunNode(registry_,
                                          "L = NegativeLogLikelihoodLoss <reduction = \"none\"> "
                                          "(X, T)",
                                          13, {input_, target_}));
  EXPECT_THAT(ValuesOf<double>(none[0]), ElementsAre(3, 4));
  ASSERT_OK_AND_ASSIGN(
      auto sum, RunNode(registry_, "L = NegativeLogLikelihoodLoss <reduction = \"sum\"> (X, T)", 13,
                        {input_, target_}));
  EXPECT_THAT(DimsOf(sum[0]), IsEmpty());
  EXPECT_THAT(ValuesOf<double>(sum[0]), ElementsAre(7));
  ASSERT_OK_AND_ASSIGN(
      auto mean, RunNode(registry_, "L = NegativeLogLikelihoodLoss (X, T)", 13, {input_, target_}));
  EXPECT_THAT(ValuesOf<double>(mean[0]), ElementsAre(3.5));
}

TEST_F(LossTest, NllWeightedMeanDividesByTheWeights) {
  ASSERT_OK_AND_ASSIGN(auto mean, RunNode(registry_, "L = NegativeLogLikelihoodLoss (X, T, W)", 13,
                                          {input_, target_, weight_}));
  // (2 * 3 + 0.5 * 4) / (2 + 0.5)
  EXPECT_DOUBLE_EQ(ValuesOf<double>(mean[0])[0], 8.0 / 2.5);
}

TEST_F(LossTest, NllIgnoreIndexDropsTheElement) {
  Value target = TensorValue<int64_t>({2}, {2, -1});
  ASSERT_OK_AND_ASSIGN(auto none, RunNode(registry_,
                                          "L = NegativeLogLikelihoodLoss <reduction = \"none\", "
                                          "ignore_index = -1> (X, T, W)",
                                          13, {input_, target, weight_}));
  EXPECT_THAT(ValuesOf<double>(none[0]), ElementsAre(6, 0));
  ASSERT_OK_AND_ASSIGN(
      auto mean, RunNode(registry_, "L = NegativeLogLikelihoodLoss <ignore_index = -1> (X, T)", 13,
                         {input_, target}));
  EXPECT_THAT(ValuesOf<double>(mean[0]), ElementsAre(3));
  // Without ignore_index, -1 is out of range.
  EXPECT_ERROR_CODE(
      RunNode(registry_, "L = NegativeLogLikelihoodLoss (X, T)", 13, {input_, target}),
      kInvalidArgument);
}

TEST_F(LossTest, NllExtraDims) {
  // [N=1, C=2, d=2]: input[0, c, d] = 10 * c + d.
  Value input = TensorValue<float>({1, 2, 2}, {0, 1, 10, 11});
  Value target = TensorValue<int32_t>({1, 2}, {1, 0});
  ASSERT_OK_AND_ASSIGN(auto none, RunNode(registry_,
                                          "L = NegativeLogLikelihoodLoss <reduction = \"none\"> "
                                          "(X, T)",
                                          12, {input, target}));
  EXPECT_THAT(DimsOf(none[0]), ElementsAre(1, 2));
  EXPECT_THAT(ValuesOf<float>(none[0]), ElementsAre(-10, -1));
}

TEST_F(LossTest, BadShapesAndAttributes) {
  EXPECT_ERROR_CODE(RunNode(registry_, "L = NegativeLogLikelihoodLoss (X, T)", 13,
                            {input_, TensorValue<int64_t>({3}, {0, 0, 0})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "L = NegativeLogLikelihoodLoss (X, T, W)", 13,
                            {input_, target_, TensorValue<double>({2}, {1, 1})}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(RunNode(registry_, "L = NegativeLogLikelihoodLoss <reduction = \"avg\"> (X, T)",
                            13, {input_, target_}),
                    kInvalidArgument);
}

TEST_F(LossTest, SoftmaxCrossEntropyWithLogProb) {
  Value scores = TensorValue<float>({2, 3}, {1, 2, 3, 0, 0, 0});
  Value labels = TensorValue<int64_t>({2}, {2, 1});
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "L, P = SoftmaxCrossEntropyLoss (S, T)", 13, {scores, labels}));
  const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  const double lse1 = std::log(3.0);
  std::vector<double> log_prob = {1 - lse0, 2 - lse0, 3 - lse0, -lse1, -lse1, -lse1};
  ASSERT_EQ(out.size(), 2u);
  EXPECT_THAT(DimsOf(out[1]), ElementsAre(2, 3));
  std::vector<float> got = ValuesOf<float>(out[1]);
  EXPECT_THAT(std::vector<double>(got.begin(), got.end()), Pointwise(DoubleNear(1e-6), log_prob));
  EXPECT_NEAR(ValuesOf<float>(out[0])[0], -(log_prob[2] + log_prob[4]) / 2, 1e-6);
}

TEST_F(LossTest, SoftmaxCrossEntropyIgnoredAndWeighted) {
  Value scores = TensorValue<double>({2, 2}, {0, 0, 0, 0});
  Value labels = TensorValue<int32_t>({2}, {1, 5});
  Value weights = TensorValue<double>({2}, {1, 3});
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_,
                                         "L = SoftmaxCrossEntropyLoss <reduction = \"sum\", "
                                         "ignore_index = 5> (S, T, W)",
                                         13, {scores, labels, weights}));
  EXPECT_DOUBLE_EQ(ValuesOf<double>(out[0])[0], 3 * std::log(2.0));
  // All ignored: the weighted mean is 0/0.
  ASSERT_OK_AND_ASSIGN(
      auto nan, RunNode(registry_, "L = SoftmaxCrossEntropyLoss <ignore_index = 5> (S, T)", 13,
                        {scores, TensorValue<int32_t>({2}, {5, 5})}));
  EXPECT_TRUE(std::isnan(ValuesOf<double>(nan[0])[0]));
}

TEST_F(LossTest, SoftmaxCrossEntropyBFloat16FromOpset13) {
  Value scores = BFloat16Value({1, 2}, {0, 0});
  Value labels = TensorValue<int64_t>({1}, {0});
  EXPECT_ERROR_CODE(RunNode(registry_, "L = SoftmaxCrossEntropyLoss (S, T)", 12, {scores, labels}),
                    kUnimplemented);
  ASSERT_OK_AND_ASSIGN(
      auto out, RunNode(registry_, "L = SoftmaxCrossEntropyLoss (S, T)", 13, {scores, labels}));
  EXPECT_NEAR(HalfValuesOf<BFloat16>(out[0])[0], std::log(2.0), 1e-2);
}

TEST_F(LossTest, NllTakesBFloat16FromOpset22) {
  Value x = BFloat16Value({2, 3}, {-1, -2, -3, -4, -5, -6});
  const std::string node = "L = NegativeLogLikelihoodLoss <reduction = \"sum\"> (X, T)";
  EXPECT_ERROR_CODE(RunNode(registry_, node, 21, {x, target_}), kUnimplemented);
  ASSERT_OK_AND_ASSIGN(auto out, RunNode(registry_, node, 22, {x, target_}));
  EXPECT_THAT(HalfValuesOf<BFloat16>(out[0]), ElementsAre(7));
  EXPECT_ERROR_CODE(RunNode(registry_, node, 22, {x, TensorValue<int64_t>({2}, {3, 0})}),
                    kInvalidArgument);
}

}  // namespace
}  // namespace onnxgate::ref
