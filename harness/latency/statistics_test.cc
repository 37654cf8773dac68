// Tests of percentiles, summaries and the Mann-Whitney U test against published and hand-worked
// values.
#include "harness/latency/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace onnxgate {
namespace {

TEST(PercentileTest, InterpolatesBetweenClosestRanks) {
  // numpy.percentile([1, 2, 3, 4], [0, 50, 90, 100]) = 1, 2.5, 3.7, 4.
  const std::vector<double> v = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(Percentile(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(Percentile(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(Percentile(v, 0.9), 3.7);
  EXPECT_DOUBLE_EQ(Percentile(v, 1.0), 4.0);
  EXPECT_DOUBLE_EQ(Percentile({7.0}, 0.99), 7.0);
}

TEST(SummarizeTest, AllStatistics) {
  // 1..10: mean 5.5, sample stddev sqrt(110 / 12) = 3.02765, median 5.5, p10 1.9, p90 9.1,
  // p99 9.91.
  std::vector<double> v;
  for (int i = 10; i >= 1; --i) v.push_back(i);
  const SampleSummary s = Summarize(v);
  EXPECT_EQ(s.n, 10u);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_NEAR(s.p10, 1.9, 1e-12);
  EXPECT_NEAR(s.p90, 9.1, 1e-12);
  EXPECT_NEAR(s.p99, 9.91, 1e-12);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_NEAR(s.stddev, std::sqrt(110.0 / 12.0), 1e-12);
  EXPECT_NEAR(s.cv, std::sqrt(110.0 / 12.0) / 5.5, 1e-12);
}

TEST(SummarizeTest, SingleSampleHasNoSpread) {
  const SampleSummary s = Summarize({3.0});
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.cv, 0.0);
  EXPECT_EQ(s.p99, 3.0);
}

TEST(MannWhitneyTest, CompleteSeparationExact) {
  // 3 against 3, all x below all y: U_x = 0, P(U <= 0) = 1 / C(6, 3), two-sided 2 / 20.
  MannWhitneyResult r = MannWhitneyU({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_x, 0.0);
  EXPECT_DOUBLE_EQ(r.u_y, 9.0);
  EXPECT_NEAR(r.p_value, 0.1, 1e-12);
  // 9 against 9 separated: 2 / C(18, 9) = 4.1135e-5, the smallest p nine repetitions can give.
  std::vector<double> x, y;
  for (int i = 0; i < 9; ++i) {
    x.push_back(10 + i);
    y.push_back(i);
  }
  r = MannWhitneyU(x, y);
  EXPECT_DOUBLE_EQ(r.u_x, 81.0);
  EXPECT_NEAR(r.p_value, 2.0 / 48620.0, 1e-15);
}

TEST(MannWhitneyTest, PublishedExample) {
  // The example of R's wilcox.test (Hollander & Wolfe): W = 35, one-sided p = 0.1272, so the
  // two-sided exact p is 0.2544.
  const std::vector<double> x = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
  const std::vector<double> y = {1.15, 0.88, 0.90, 0.74, 1.21};
  MannWhitneyResult r = MannWhitneyU(x, y);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_x, 35.0);
  EXPECT_DOUBLE_EQ(r.u_y, 15.0);
  EXPECT_NEAR(r.p_value, 0.2544122544, 1e-9);
  // Swapping the samples mirrors U and keeps p.
  MannWhitneyResult swapped = MannWhitneyU(y, x);
  EXPECT_DOUBLE_EQ(swapped.u_x, 15.0);
  EXPECT_NEAR(swapped.p_value, r.p_value, 1e-12);
}

TEST(MannWhitneyTest, TiesUseCorrectedNormalApproximation) {
  // Pooled ranks: 1 -> 1, the three 2s -> 3, 3 -> 5, the two 4s -> 6.5, 5 -> 8, so R_x = 20 and
  // U_x = 20 - 15 = 5. Ties: 3^3 - 3 + 2^3 - 2 = 30. var = 30 / 12 * (12 - 30 / 110) =
  // 29.318; z = (|5 - 15| - 0.5) / sqrt(var) = -1.75451; p = erfc(1.75451 / sqrt 2) = 0.079344.
  MannWhitneyResult r = MannWhitneyU({1, 2, 2, 3, 5}, {2, 4, 4, 6, 7, 8});
  EXPECT_FALSE(r.exact);
  EXPECT_TRUE(r.ties);
  EXPECT_DOUBLE_EQ(r.u_x, 5.0);
  EXPECT_NEAR(r.z, -1.7545069318, 1e-9);
  EXPECT_NEAR(r.p_value, 0.0793436832, 1e-9);
}

TEST(MannWhitneyTest, AllTiedIsNoEvidence) {
  MannWhitneyResult r = MannWhitneyU({2, 2, 2}, {2, 2});
  EXPECT_DOUBLE_EQ(r.u_x, 3.0);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
}

TEST(MannWhitneyTest, IdenticalSamplesGiveNoEvidence) {
  // Interleaved values: U = m n / 2 exactly, so p is 1 (capped).
  MannWhitneyResult r = MannWhitneyU({1, 3, 5, 7}, {2, 4, 6, 8});
  EXPECT_DOUBLE_EQ(r.u_x, 6.0);
  EXPECT_GT(r.p_value, 0.6);
}

TEST(MannWhitneyTest, NormalApproximationAgreesWithExactForLargeSamples) {
  // 60 values each (above the exact limit) against the exact distribution at 50 each, both
  // from the same deterministic interleaving with a shift: the p-values must be close.
  auto make = [](int n, double shift) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(i + shift + 0.001 * ((i * 37) % 11));
    return v;
  };
  MannWhitneyResult exact = MannWhitneyU(make(50, 0.0), make(50, 6.3));
  EXPECT_TRUE(exact.exact);
  // The same data through the normal approximation, forced by adding one tie far away.
  std::vector<double> x = make(50, 0.0), y = make(50, 6.3);
  x.push_back(1000.0);
  y.push_back(1000.0);
  MannWhitneyResult approx = MannWhitneyU(x, y);
  EXPECT_FALSE(approx.exact);
  EXPECT_GT(exact.p_value, 0.01);
  EXPECT_NEAR(approx.p_value, exact.p_value, 0.02);
}

TEST(MannWhitneyTest, SmallShiftInNoiseIsNotSignificantLargeShiftIs) {
  std::vector<double> base, slower, much_slower;
  for (int i = 0; i < 12; ++i) {
    const double noise = ((i * 7) % 12) * 0.1;  // 0 .. 1.1, a permutation of 12 steps
    base.push_back(10.0 + noise);
    slower.push_back(10.05 + ((i * 5) % 12) * 0.1);
    much_slower.push_back(12.5 + ((i * 5) % 12) * 0.1);
  }
  EXPECT_GT(MannWhitneyU(slower, base).p_value, 0.5);
  EXPECT_LT(MannWhitneyU(much_slower, base).p_value, 1e-5);
}

TEST(SignTestTest, CountsPairsAndGivesTheExactBinomialTail) {
  // 9 pairs, 8 with x larger, 1 smaller, 1 tie: p = 2 * (1 + 9) / 2^9.
  SignTestResult r = SignTest({2, 2, 2, 2, 2, 2, 2, 2, 0, 5}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 5});
  EXPECT_EQ(r.greater, 8u);
  EXPECT_EQ(r.less, 1u);
  EXPECT_EQ(r.ties, 1u);
  EXPECT_NEAR(r.p_value, 20.0 / 512.0, 1e-12);
  // Swapped sides: the same p.
  EXPECT_NEAR(SignTest({1, 1, 1, 1, 1, 1, 1, 1, 1, 5}, {2, 2, 2, 2, 2, 2, 2, 2, 0, 5}).p_value,
              20.0 / 512.0, 1e-12);
}

TEST(SignTestTest, BalancedOrTiedPairsAreNoEvidence) {
  EXPECT_DOUBLE_EQ(SignTest({1, 3, 5, 7}, {2, 2, 6, 6}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(SignTest({4, 4}, {4, 4}).p_value, 1.0);
  EXPECT_DOUBLE_EQ(SignTest({}, {}).p_value, 1.0);
}

TEST(SignTestTest, PairsIgnoreWhatAllSamplesShare) {
  // Pair i drifts with i, far more than the 1% between the sides: Mann-Whitney sees the drift,
  // the sign test sees every pair slower on x.
  std::vector<double> x, y;
  for (int i = 0; i < 27; ++i) {
    y.push_back(10.0 + i);
    x.push_back((10.0 + i) * 1.01);
  }
  EXPECT_GT(MannWhitneyU(x, y).p_value, 0.5);
  SignTestResult r = SignTest(x, y);
  EXPECT_EQ(r.greater, 27u);
  EXPECT_NEAR(r.p_value, 2.0 / 134217728.0, 1e-20);
}

}  // namespace
}  // namespace onnxgate
