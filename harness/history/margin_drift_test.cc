#include "harness/history/margin_drift.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace onnxgate {
namespace {

// A line from `from` to `to` over `n` points with Gaussian noise of `sd`, from a fixed seed.
std::vector<double> Ramp(size_t n, double from, double to, double sd, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sd);
  std::vector<double> margins(n);
  for (size_t i = 0; i < n; ++i) margins[i] = from + (to - from) * i / (n - 1) + noise(rng);
  return margins;
}

TEST(MarginDriftTest, CreepingMarginIsFlaggedBeforeItFails) {
  const std::vector<double> margins = Ramp(60, 0.3, 0.9, 0.01, 1);
  const std::optional<MarginDrift> drift = FindMarginDrift(margins, {});
  ASSERT_TRUE(drift.has_value());
  EXPECT_FALSE(drift->reason.empty());
  EXPECT_NE(drift->reason.find("tolerance"), std::string::npos) << drift->reason;
}

TEST(MarginDriftTest, CreepingMarginIsATrendWithItsProjection) {
  MarginDriftSettings settings;
  settings.step_level = 2.0;  // the step rule never flags
  const std::optional<MarginDrift> drift = FindMarginDrift(Ramp(60, 0.3, 0.9, 0.01, 2), settings);
  ASSERT_TRUE(drift.has_value());
  EXPECT_EQ(drift->rule, MarginDrift::Rule::kTrend);
  EXPECT_NEAR(drift->slope, 0.6 / 59, 0.002);
  EXPECT_NEAR(drift->after, 0.9, 0.03);
  EXPECT_NEAR(drift->commits_to_limit, 0.1 / (0.6 / 59), 3.0);
  EXPECT_EQ(drift->index, 40u);
  EXPECT_NE(drift->reason.find("reaches the tolerance in"), std::string::npos) << drift->reason;
}

TEST(MarginDriftTest, FlatMarginIsNotFlagged) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    EXPECT_FALSE(FindMarginDrift(Ramp(60, 0.5, 0.5, 0.02, seed), {}).has_value());
    EXPECT_FALSE(FindMarginDrift(Ramp(60, 0.92, 0.92, 0.02, seed), {}).has_value());
  }
}

TEST(MarginDriftTest, SlowCreepFarFromTheLimitIsNotFlagged) {
  // Rises, but at this rate it would take far more than the horizon to reach 1.
  EXPECT_FALSE(FindMarginDrift(Ramp(60, 0.10, 0.25, 0.005, 3), {}).has_value());
}

TEST(MarginDriftTest, StepUpCloseToTheLimitIsFlagged) {
  std::vector<double> margins = Ramp(60, 0.4, 0.4, 0.01, 4);
  for (size_t i = 45; i < margins.size(); ++i) margins[i] += 0.45;
  const std::optional<MarginDrift> drift = FindMarginDrift(margins, {});
  ASSERT_TRUE(drift.has_value());
  EXPECT_EQ(drift->rule, MarginDrift::Rule::kStep);
  EXPECT_EQ(drift->index, 45u);
  EXPECT_NEAR(drift->before, 0.4, 0.01);
  EXPECT_NEAR(drift->after, 0.85, 0.01);
  EXPECT_NE(drift->reason.find("commit 46 of 60"), std::string::npos) << drift->reason;
}

TEST(MarginDriftTest, StepDownIsNotFlagged) {
  std::vector<double> margins = Ramp(60, 0.9, 0.9, 0.01, 5);
  for (size_t i = 30; i < margins.size(); ++i) margins[i] -= 0.5;
  EXPECT_FALSE(FindMarginDrift(margins, {}).has_value());
}

TEST(MarginDriftTest, TooFewMarginsHaveNoVerdict) {
  EXPECT_FALSE(FindMarginDrift({0.5, 0.7, 0.9, 0.99}, {}).has_value());
  EXPECT_FALSE(FindMarginDrift({}, {}).has_value());
  std::vector<double> mostly_missing(60, std::nan(""));
  for (size_t i = 50; i < 55; ++i) mostly_missing[i] = 0.5 + 0.1 * (i - 50);
  EXPECT_FALSE(FindMarginDrift(mostly_missing, {}).has_value());
}

TEST(MarginDriftTest, MissingMarginsAreSkipped) {
  std::vector<double> margins = Ramp(60, 0.3, 0.9, 0.01, 6);
  margins[10] = std::nan("");
  margins[58] = std::nan("");
  const std::optional<MarginDrift> drift = FindMarginDrift(margins, {});
  ASSERT_TRUE(drift.has_value());
  EXPECT_TRUE(std::isfinite(drift->after));
}

TEST(MarginDriftTest, SameResultTwice) {
  const std::vector<double> margins = Ramp(60, 0.3, 0.9, 0.02, 7);
  const std::optional<MarginDrift> a = FindMarginDrift(margins, {});
  const std::optional<MarginDrift> b = FindMarginDrift(margins, {});
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(a->reason, b->reason);
  EXPECT_EQ(a->index, b->index);
}

}  // namespace
}  // namespace onnxgate
