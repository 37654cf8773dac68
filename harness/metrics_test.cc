// Tests for error metrics: exact values on small tensors, NaN and infinities, empty tensors, the
// top-k ties rule, integer steps, threshold parsing and judging with margins.
#include "harness/metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Tensor F(Shape shape, std::vector<float> v) { return Tensor::FromVector<float>(shape, v); }

TEST(MetricsTest, ExactValuesOnASmallTensor) {
  // expected (1, 2, 3, 4), actual (1, 2.5, 3, 3): errors 0, 0.5, 0, 1.
  TensorMetrics m = ComputeTensorMetrics(F({4}, {1, 2.5f, 3, 3}), F({4}, {1, 2, 3, 4}), {});
  ASSERT_TRUE(m.computed);
  EXPECT_EQ(m.elements, 4);
  EXPECT_DOUBLE_EQ(m.max_abs, 1);
  EXPECT_DOUBLE_EQ(m.mean_abs, 0.375);
  EXPECT_DOUBLE_EQ(m.p99_abs, 1);
  EXPECT_DOUBLE_EQ(m.max_rel, 0.25);
  EXPECT_DOUBLE_EQ(m.mean_rel, (0.25 + 0.25) / 4);
  const double dot = 1 + 5 + 9 + 12, aa = 1 + 6.25 + 9 + 9, ee = 1 + 4 + 9 + 16;
  EXPECT_NEAR(m.cosine, dot / std::sqrt(aa * ee), 1e-12);
  EXPECT_NEAR(m.sqnr_db, 10 * std::log10(30 / 1.25), 1e-12);
  EXPECT_FALSE(m.integer);
}

TEST(MetricsTest, P99IsTheNearestRank) {
  std::vector<float> expected(200, 0), actual(200, 0);
  for (int i = 0; i < 200; ++i) actual[i] = static_cast<float>(i);  // errors 0..199
  TensorMetrics m = ComputeTensorMetrics(F({200}, actual), F({200}, expected), {});
  EXPECT_DOUBLE_EQ(m.p99_abs, 197);  // rank ceil(198) = 198 -> value 197
  EXPECT_DOUBLE_EQ(m.max_abs, 199);
  EXPECT_EQ(m.max_rel, 0);  // every expected value is 0
  EXPECT_EQ(m.cosine, 0);   // only one side is all zero
  EXPECT_EQ(m.sqnr_db, -kInf);
}

TEST(MetricsTest, IdenticalAndAllZeroTensors) {
  TensorMetrics same = ComputeTensorMetrics(F({3}, {1, -2, 3}), F({3}, {1, -2, 3}), {1});
  EXPECT_EQ(same.cosine, 1);
  EXPECT_EQ(same.sqnr_db, kInf);
  EXPECT_EQ(same.max_abs, 0);
  TensorMetrics zeros = ComputeTensorMetrics(F({2}, {0, 0}), F({2}, {0, 0}), {});
  EXPECT_EQ(zeros.cosine, 1);
  EXPECT_EQ(zeros.sqnr_db, kInf);
}

TEST(MetricsTest, MatchedNonFiniteValuesAddNoError) {
  TensorMetrics m =
      ComputeTensorMetrics(F({3}, {kNaN, INFINITY, 2}), F({3}, {kNaN, INFINITY, 2}), {});
  EXPECT_EQ(m.max_abs, 0);
  EXPECT_EQ(m.cosine, 1);
  EXPECT_EQ(m.sqnr_db, kInf);
}

TEST(MetricsTest, UnmatchedNonFiniteValueFailsEveryThreshold) {
  TensorMetrics m = ComputeTensorMetrics(F({2}, {kNaN, 1}), F({2}, {0.5f, 1}), {});
  EXPECT_EQ(m.max_abs, kInf);
  EXPECT_TRUE(std::isnan(m.cosine));
  EXPECT_EQ(m.sqnr_db, -kInf);
  auto thresholds = ParseMetricThresholds({"cosine=-1", "sqnr_db=-1000", "max_abs=1000"}, "t");
  ASSERT_TRUE(thresholds.ok());
  MetricJudgement j = JudgeMetrics(m, *thresholds);
  EXPECT_TRUE(j.judged);
  EXPECT_FALSE(j.passed);
  for (const MetricVerdict& v : j.verdicts) EXPECT_FALSE(v.passed) << v.metric;
}

TEST(MetricsTest, EmptyTensorsHaveNoErrorAndAgreeFully) {
  TensorMetrics m = ComputeTensorMetrics(F({0, 5}, {}), F({0, 5}, {}), {1, 5});
  ASSERT_TRUE(m.computed);
  EXPECT_EQ(m.elements, 0);
  EXPECT_EQ(m.max_abs, 0);
  EXPECT_EQ(m.p99_abs, 0);
  EXPECT_EQ(m.cosine, 1);
  ASSERT_EQ(m.top_k.size(), 2u);
  EXPECT_EQ(m.top_k[0].agreement, 1);
}

TEST(MetricsTest, TopKAgreementPerRow) {
  // Row 0: top1 2 on both; row 1: top1 0 against 1; top2 {0,1} on both.
  Tensor expected = F({2, 3}, {0.1f, 0.2f, 0.7f, 0.5f, 0.4f, 0.1f});
  Tensor actual = F({2, 3}, {0.0f, 0.1f, 0.9f, 0.4f, 0.5f, 0.1f});
  TensorMetrics m = ComputeTensorMetrics(actual, expected, {1, 2, 4});
  ASSERT_EQ(m.top_k.size(), 2u);  // no top4 of 3 classes
  EXPECT_EQ(m.top_k[0].k, 1);
  EXPECT_DOUBLE_EQ(m.top_k[0].agreement, 0.5);
  EXPECT_EQ(m.top_k[1].k, 2);
  EXPECT_DOUBLE_EQ(m.top_k[1].agreement, 1);
  double v;
  EXPECT_TRUE(m.Lookup("top2", &v));
  EXPECT_FALSE(m.Lookup("top4", &v));
}

TEST(MetricsTest, TopKTiesRankTheLowerIndexFirstAndNaNLast) {
  // Expected ties at 0 and 2: class 0 is top1. Actual's NaN at 0 ranks last: class 2 is top1.
  TensorMetrics ties =
      ComputeTensorMetrics(F({3}, {0.5f, 0.1f, 0.5f}), F({3}, {0.5f, 0.1f, 0.5f}), {1});
  EXPECT_EQ(ties.top_k[0].agreement, 1);
  TensorMetrics tie_vs_max =
      ComputeTensorMetrics(F({3}, {0.5f, 0.1f, 0.5f}), F({3}, {0.4f, 0.1f, 0.5f}), {1});
  EXPECT_EQ(tie_vs_max.top_k[0].agreement, 0);  // actual's tie picks class 0, expected's 2
  TensorMetrics nan_row =
      ComputeTensorMetrics(F({3}, {kNaN, 0.1f, 0.5f}), F({3}, {0.4f, 0.1f, 0.5f}), {1});
  EXPECT_EQ(nan_row.top_k[0].agreement, 1);
}

TEST(MetricsTest, IntegersCountSteps) {
  Tensor expected = Tensor::FromVector<int8_t>({3}, {-128, 5, 127});
  Tensor actual = Tensor::FromVector<int8_t>({3}, {-127, 5, 126});
  TensorMetrics m = ComputeTensorMetrics(actual, expected, {1});
  ASSERT_TRUE(m.integer);
  EXPECT_EQ(m.max_steps, 1);
  EXPECT_TRUE(m.top_k.empty());
  auto one = ParseMetricThresholds({"int_steps=1"}, "t");
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(JudgeMetrics(m, *one).passed);
  auto zero = ParseMetricThresholds({"int_steps=0"}, "t");
  EXPECT_FALSE(JudgeMetrics(m, *zero).passed);
  // int_steps does not apply to floats: a float value is not judged by it.
  TensorMetrics f = ComputeTensorMetrics(F({1}, {1}), F({1}, {2}), {});
  EXPECT_FALSE(JudgeMetrics(f, *zero).judged);
}

TEST(MetricsTest, NoMetricsForStringsOrShapeDifferences) {
  Tensor s = Tensor::FromVector<std::string>({1}, {"a"});
  EXPECT_FALSE(ComputeTensorMetrics(s, s, {}).computed);
  TensorMetrics shape = ComputeTensorMetrics(F({2}, {1, 2}), F({1, 2}, {1, 2}), {});
  EXPECT_FALSE(shape.computed);
  EXPECT_THAT(shape.why_not, HasSubstr("[1,2] expected"));
  auto t = ParseMetricThresholds({"cosine=0.9"}, "t");
  EXPECT_FALSE(JudgeMetrics(shape, *t).judged);
}

TEST(MetricsTest, VerdictsCarryMargins) {
  TensorMetrics m = ComputeTensorMetrics(F({2, 2}, {1, 0, 0, 1}), F({2, 2}, {1, 0, 0, 1.5f}), {1});
  auto t = ParseMetricThresholds({"top1=0.99", "max_abs=0.2"}, "t");
  ASSERT_TRUE(t.ok());
  MetricJudgement j = JudgeMetrics(m, *t);
  ASSERT_EQ(j.verdicts.size(), 2u);
  EXPECT_TRUE(j.verdicts[0].passed);
  EXPECT_NEAR(j.verdicts[0].margin, 0.01, 1e-12);
  EXPECT_FALSE(j.verdicts[1].passed);
  EXPECT_NEAR(j.verdicts[1].margin, -0.3, 1e-12);
  EXPECT_FALSE(j.passed);
  EXPECT_EQ(DescribeVerdicts(j.verdicts),
            "top1 1 (>= 0.99, margin 0.01), max_abs 0.5 (<= 0.2, FAILS by 0.3)");
}

TEST(MetricsTest, ThresholdsOutOfRangeAreRefusedByName) {
  auto above = ParseMetricThresholds({"cosine=1.5"}, "suite.json: case 'a'");
  ASSERT_FALSE(above.ok());
  EXPECT_THAT(above.status().message(), HasSubstr("suite.json: case 'a': metric 'cosine'"));
  EXPECT_THAT(above.status().message(), HasSubstr("[-1, 1]"));
  EXPECT_FALSE(ParseMetricThresholds({"top-1=0.9"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"top0=0.9"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"top1=1.1"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"max_abs=-1"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"int_steps=0.5"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"sqnr_db=inf"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"cosine"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"cosine=abc"}, "t").ok());
  EXPECT_FALSE(ParseMetricThresholds({"cosine=0.9", "cosine=0.8"}, "t").ok());
  auto unknown = ParseMetricThresholds({"cosin=0.9"}, "t");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("known: cosine"));
  auto fine = ParseMetricThresholds({"cosine=0.999", "top5=0.9", "sqnr_db=20"}, "t");
  ASSERT_TRUE(fine.ok());
  EXPECT_EQ(fine->TopKs(3), (std::vector<int>{3, 5}));
  EXPECT_EQ(fine->ToString(), "{\"cosine\": 0.999, \"top5\": 0.9, \"sqnr_db\": 20}");
}

}  // namespace
}  // namespace onnxgate
