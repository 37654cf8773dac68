// Tests of a case's metric thresholds applied to an output record: a quantization-sized error
// that rtol/atol fails passes by cosine and top-1, a threshold it misses fails with its margin,
// and thresholds that do not apply leave the elementwise verdict alone.
#include "harness/case_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/compare.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

Value Logits(std::vector<float> v) {
  return Value::FromTensor(Tensor::FromVector<float>({1, static_cast<int64_t>(v.size())}, v));
}

struct Judged {
  OutputComparison rec;
  std::string summary;
};

Judged Judge(const Value& actual, const Value& expected, const std::vector<std::string>& metrics) {
  Judged j;
  ValueComparison cmp = CompareValues(actual, expected, Tolerance());
  j.rec.passed = cmp.passed;
  j.summary = cmp.summary;
  JudgeOutputByMetrics(actual, expected, *ParseMetricThresholds(metrics, "test"), &j.rec,
                       &j.summary);
  return j;
}

TEST(CaseMetricsTest, AQuantizationSizedErrorPassesByCosineAndTop1) {
  const Value expected = Logits({0.1f, 2.0f, -1.0f, 0.5f});
  const Value actual = Logits({0.12f, 1.97f, -1.02f, 0.49f});
  Judged j = Judge(actual, expected, {"cosine=0.999", "top1=1"});
  EXPECT_TRUE(j.rec.passed) << j.summary;
  ASSERT_EQ(j.rec.metrics.size(), 2u);
  EXPECT_EQ(j.rec.metrics[0].metric, "cosine");
  EXPECT_GT(j.rec.metrics[0].margin, 0);
  EXPECT_THAT(j.summary, HasSubstr("judged by metrics: cosine"));
}

TEST(CaseMetricsTest, AMissedThresholdFailsWithItsMargin) {
  Judged j = Judge(Logits({2.0f, 0.1f}), Logits({0.1f, 2.0f}), {"top1=0.99"});
  EXPECT_FALSE(j.rec.passed);
  ASSERT_EQ(j.rec.metrics.size(), 1u);
  EXPECT_DOUBLE_EQ(j.rec.metrics[0].margin, -0.99);
  EXPECT_THAT(j.summary, HasSubstr("FAILS by 0.99"));
}

TEST(CaseMetricsTest, ThresholdsThatDoNotApplyLeaveTheElementwiseVerdict) {
  const Value expected = Logits({1.0f, 2.0f});
  Judged j = Judge(Logits({1.5f, 2.0f}), expected, {"int_steps=1"});
  EXPECT_FALSE(j.rec.passed);
  EXPECT_TRUE(j.rec.metrics.empty());
  EXPECT_THAT(j.summary, HasSubstr("mismatches"));
}

}  // namespace
}  // namespace onnxgate
