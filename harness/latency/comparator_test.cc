// Tests of the latency verdicts: regression and improvement need the threshold, the Mann-Whitney
// test and the fast end; a large move the test cannot confirm, or one the fastest runs do not
// share, is inconclusive.
#include "harness/latency/comparator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// 10 samples around 10 ms with a spread of about 1%.
std::vector<double> Base() {
  return {10.00, 10.03, 9.98, 10.05, 10.01, 9.97, 10.04, 10.02, 9.99, 10.06};
}

std::vector<double> Scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * factor);
  return out;
}

TEST(CompareLatencyTest, SlowerBeyondThresholdAndSignificantIsARegression) {
  LatencyComparison c = CompareLatency(Scaled(Base(), 1.25), Base(), 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kRegression);
  ASSERT_TRUE(c.change_ratio.has_value());
  EXPECT_NEAR(*c.change_ratio, 0.25, 1e-9);
  ASSERT_TRUE(c.p_value.has_value());
  EXPECT_LT(*c.p_value, 0.001);
  ASSERT_TRUE(c.baseline_median_ms.has_value());
  EXPECT_NEAR(*c.baseline_median_ms, 10.015, 1e-9);
  EXPECT_DOUBLE_EQ(c.threshold, 0.10);
  EXPECT_THAT(c.message, HasSubstr("+25.0%"));
  EXPECT_THAT(c.message, HasSubstr("slower"));
  ASSERT_TRUE(c.fast_end_change_ratio.has_value());
  EXPECT_NEAR(*c.fast_end_change_ratio, 0.25, 1e-9);
  EXPECT_THAT(c.message, HasSubstr("10th percentile"));
}

TEST(CompareLatencyTest, SlowSpellThatSparesTheFastestRunsIsInconclusive) {
  // Three rounds of 10 around 10 ms in the baseline; now two of three rounds ran in a spell of
  // other work (+25%): the median and the test say slower, the fastest runs say unchanged.
  std::vector<double> baseline, current;
  for (int round = 0; round < 3; ++round) {
    for (double x : Base()) baseline.push_back(x);
    for (double x : Scaled(Base(), round == 0 ? 1.0 : 1.25)) current.push_back(x);
  }
  LatencyComparison c = CompareLatency(current, baseline, 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kInconclusive);
  EXPECT_GT(*c.change_ratio, 0.2);
  EXPECT_LT(*c.p_value, 0.01);
  ASSERT_TRUE(c.fast_end_change_ratio.has_value());
  EXPECT_LT(*c.fast_end_change_ratio, 0.01);
  EXPECT_THAT(c.message, HasSubstr("fast end did not move"));

  // The same spell in the baseline makes a run at full speed look faster, not improved.
  c = CompareLatency(baseline, current, 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kInconclusive);
}

TEST(CompareLatencyTest, FasterBeyondThresholdAndSignificantIsAnImprovement) {
  LatencyComparison c = CompareLatency(Scaled(Base(), 0.7), Base(), 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kImprovement);
  EXPECT_NEAR(*c.change_ratio, -0.3, 1e-9);
  EXPECT_THAT(c.message, HasSubstr("faster"));
}

TEST(CompareLatencyTest, SignificantButSmallIsUnchanged) {
  // +3% with 1% noise: the test sees it, the threshold does not let it count.
  LatencyComparison c = CompareLatency(Scaled(Base(), 1.03), Base(), 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kUnchanged);
  EXPECT_LT(*c.p_value, 0.01);
  EXPECT_THAT(c.message, HasSubstr("real but small"));
}

TEST(CompareLatencyTest, IdenticalIsUnchanged) {
  LatencyComparison c = CompareLatency(Base(), Base(), 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kUnchanged);
  EXPECT_NEAR(*c.change_ratio, 0.0, 1e-12);
  EXPECT_GT(*c.p_value, 0.9);
}

TEST(CompareLatencyTest, LargeMoveInNoiseIsInconclusive) {
  // Medians 14 and 16.5 (+17.9%), but the samples overlap so much that U cannot tell them apart.
  const std::vector<double> baseline = {10, 11, 12, 13, 14, 15, 16, 17, 18};
  const std::vector<double> current = {8, 9, 12.5, 14.5, 16.5, 17.5, 18.5, 20, 25};
  LatencyComparison c = CompareLatency(current, baseline, 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kInconclusive);
  EXPECT_NEAR(*c.change_ratio, 2.5 / 14.0, 1e-9);
  EXPECT_GE(*c.p_value, 0.01);
  EXPECT_THAT(c.message, HasSubstr("too noisy to decide"));
}

TEST(CompareLatencyTest, ThresholdDecidesWhatCounts) {
  const std::vector<double> current = Scaled(Base(), 1.12);
  EXPECT_EQ(CompareLatency(current, Base(), 0.10, 0.01).verdict, LatencyVerdict::kRegression);
  EXPECT_EQ(CompareLatency(current, Base(), 0.15, 0.01).verdict, LatencyVerdict::kUnchanged);
  // Just under the threshold is unchanged.
  EXPECT_EQ(CompareLatency(Scaled(Base(), 1.099), Base(), 0.10, 0.01).verdict,
            LatencyVerdict::kUnchanged);
}

TEST(CompareLatencyTest, AlphaDecidesWhatIsSignificant) {
  // Two samples each: the smallest two-sided p is 2 / C(4, 2) = 0.33, never below 0.01.
  LatencyComparison c = CompareLatency({20, 21}, {10, 11}, 0.10, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kInconclusive);
  EXPECT_NEAR(*c.p_value, 1.0 / 3.0, 1e-12);
  EXPECT_EQ(CompareLatency({20, 21}, {10, 11}, 0.10, 0.4).verdict, LatencyVerdict::kRegression);
}

TEST(CompareLatencyTest, NoBaselineCarriesTheReason) {
  LatencyComparison c = NoBaseline("no entry for mlp", 0.1, 0.01);
  EXPECT_EQ(c.verdict, LatencyVerdict::kNoBaseline);
  EXPECT_EQ(c.message, "no entry for mlp");
  EXPECT_FALSE(c.p_value.has_value());
  EXPECT_FALSE(c.baseline_median_ms.has_value());
}

// Base() repeated `rounds` times, each round at the given speed.
std::vector<double> Drifting(const std::vector<double>& speeds) {
  std::vector<double> out;
  for (double speed : speeds) {
    for (double x : Scaled(Base(), speed)) out.push_back(x);
  }
  return out;
}

TEST(ComparePairedTest, ASlowdownOfEveryPairIsARegressionDespiteDrift) {
  // The machine drifts by 20% between spells; the candidate is 5% slower beside each sample.
  const std::vector<double> drift = {1.0, 1.2, 1.1};
  const std::vector<double> paired = Drifting(drift);
  const std::vector<double> slower = Scaled(paired, 1.05);
  LatencyComparison c = ComparePaired(slower, paired, 0.03, 0.01, "ref");
  EXPECT_EQ(c.verdict, LatencyVerdict::kRegression) << c.message;
  EXPECT_NEAR(*c.change_ratio, 0.05, 1e-9);
  EXPECT_THAT(c.message, HasSubstr("as the median of 30 paired ratios"));
  EXPECT_THAT(c.message, HasSubstr("sign test"));
  EXPECT_THAT(c.message, HasSubstr("30 of 30 untied pairs slower"));
  EXPECT_FALSE(c.fast_end_change_ratio.has_value());  // pairing, not the fast end, guards
  // The pooled samples overlap too much for Mann-Whitney to see it.
  EXPECT_NE(CompareLatency(slower, paired, 0.03, 0.01).verdict, LatencyVerdict::kRegression);
}

TEST(ComparePairedTest, SpellsOnOneSideOfSomePairsAreNoRegression) {
  // Same speed on both sides, but 10 of 30 candidate samples ran in a spell of other work.
  const std::vector<double> paired = Drifting({1.0, 1.0, 1.0});
  std::vector<double> current = paired;
  for (size_t i = 0; i < current.size(); i += 3) current[i] *= 1.3;
  LatencyComparison c = ComparePaired(current, paired, 0.03, 0.01, "ref");
  EXPECT_EQ(c.verdict, LatencyVerdict::kUnchanged) << c.message;
  EXPECT_NEAR(*c.change_ratio, 0.0, 1e-12);
}

TEST(ComparePairedTest, SmallSlowdownIsUnchangedAndFasterIsAnImprovement) {
  const std::vector<double> paired = Drifting({1.0, 1.2, 1.1});
  EXPECT_EQ(ComparePaired(Scaled(paired, 1.01), paired, 0.03, 0.01, "ref").verdict,
            LatencyVerdict::kUnchanged);
  LatencyComparison faster = ComparePaired(Scaled(paired, 0.9), paired, 0.03, 0.01, "ref");
  EXPECT_EQ(faster.verdict, LatencyVerdict::kImprovement) << faster.message;
  EXPECT_NEAR(*faster.change_ratio, -0.1, 1e-9);
}

}  // namespace
}  // namespace onnxgate
