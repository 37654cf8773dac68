#include "harness/history/change_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

namespace onnxgate {
namespace {

// `n` points around `level` with Gaussian noise of `cv` of the level, from a fixed seed.
std::vector<double> Noisy(size_t n, double level, double cv, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, cv * level);
  std::vector<double> series(n);
  for (double& v : series) v = level + noise(rng);
  return series;
}

// Multiplies every point from `at` on by `factor`.
void Step(std::vector<double>& series, size_t at, double factor) {
  for (size_t i = at; i < series.size(); ++i) series[i] *= factor;
}

TEST(ChangePointsTest, ConstantSeriesHasNone) {
  EXPECT_TRUE(FindChangePoints(std::vector<double>(60, 12.5), {}).empty());
}

TEST(ChangePointsTest, FindsAFivePercentStepInOnePercentNoise) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::vector<double> series = Noisy(60, 10.0, 0.01, seed);
    Step(series, 30, 1.05);
    const std::vector<ChangePoint> found = FindChangePoints(series, {});
    ASSERT_EQ(found.size(), 1u) << "seed " << seed;
    EXPECT_LE(std::abs(static_cast<long>(found[0].index) - 30), 5) << "seed " << seed;
    EXPECT_NEAR(found[0].relative_change, 0.05, 0.015);
    EXPECT_NEAR(found[0].mean_before, 10.0, 0.1);
    EXPECT_NEAR(found[0].mean_after, 10.5, 0.1);
    EXPECT_LE(found[0].p_value, 0.01);
  }
}

TEST(ChangePointsTest, NoiseAloneHasNone) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    EXPECT_TRUE(FindChangePoints(Noisy(60, 10.0, 0.01, seed), {}).empty()) << "seed " << seed;
  }
}

TEST(ChangePointsTest, FindsTwoSteps) {
  std::vector<double> series = Noisy(90, 10.0, 0.01, 7);
  Step(series, 30, 1.08);
  Step(series, 60, 0.9);
  const std::vector<ChangePoint> found = FindChangePoints(series, {});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_LE(std::abs(static_cast<long>(found[0].index) - 30), 2);
  EXPECT_LE(std::abs(static_cast<long>(found[1].index) - 60), 2);
  EXPECT_GT(found[0].relative_change, 0.0);
  EXPECT_LT(found[1].relative_change, 0.0);
  EXPECT_NEAR(found[0].mean_after, found[1].mean_before, 1e-12);
}

TEST(ChangePointsTest, TooShortSeriesHasNone) {
  ChangePointSettings settings;
  settings.min_segment = 5;
  const std::vector<double> series = {1, 1, 1, 1, 1, 2, 2, 2, 2};  // 9 < 2 * 5
  EXPECT_TRUE(FindChangePoints(series, settings).empty());
  EXPECT_TRUE(FindChangePoints({}, settings).empty());
}

TEST(ChangePointsTest, SmallChangeIsNotReported) {
  std::vector<double> series = Noisy(60, 10.0, 0.001, 3);
  Step(series, 30, 1.01);  // significant, but under min_relative_change
  EXPECT_TRUE(FindChangePoints(series, {}).empty());
  ChangePointSettings sensitive;
  sensitive.min_relative_change = 0.005;
  ASSERT_EQ(FindChangePoints(series, sensitive).size(), 1u);
}

TEST(ChangePointsTest, SkipsPointsThatAreNotFiniteAndKeepsIndices) {
  std::vector<double> series = Noisy(60, 10.0, 0.01, 11);
  Step(series, 30, 1.05);
  std::vector<double> with_gaps = series;
  with_gaps[3] = std::numeric_limits<double>::quiet_NaN();
  with_gaps[40] = std::numeric_limits<double>::infinity();
  with_gaps[50] = -std::numeric_limits<double>::infinity();
  const std::vector<ChangePoint> found = FindChangePoints(with_gaps, {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_LE(std::abs(static_cast<long>(found[0].index) - 30), 5);
  EXPECT_TRUE(std::isfinite(found[0].mean_before));
  EXPECT_TRUE(std::isfinite(found[0].mean_after));
  EXPECT_TRUE(FindChangePoints(std::vector<double>(60, std::nan("")), {}).empty());
}

TEST(ChangePointsTest, SameResultTwice) {
  std::vector<double> series = Noisy(80, 10.0, 0.02, 5);
  Step(series, 50, 1.04);
  const std::vector<ChangePoint> a = FindChangePoints(series, {});
  const std::vector<ChangePoint> b = FindChangePoints(series, {});
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].p_value, b[i].p_value);
    EXPECT_EQ(a[i].relative_change, b[i].relative_change);
  }
}

TEST(ChangePointsTest, ChangeFromZeroIsRelativeToTheOtherSide) {
  std::vector<double> series(40, 0.0);
  Step(series, 0, 1.0);
  for (size_t i = 20; i < series.size(); ++i) series[i] = 0.5;
  const std::vector<ChangePoint> found = FindChangePoints(series, {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 20u);
  EXPECT_DOUBLE_EQ(found[0].relative_change, 1.0);
}

TEST(ChangePointsTest, SettingsWithoutPermutationsFindNone) {
  std::vector<double> series = Noisy(60, 10.0, 0.01, 2);
  Step(series, 30, 1.2);
  ChangePointSettings settings;
  settings.permutations = 0;
  EXPECT_TRUE(FindChangePoints(series, settings).empty());
  settings = {};
  settings.min_segment = 0;  // taken as 1
  EXPECT_FALSE(FindChangePoints(series, settings).empty());
}

}  // namespace
}  // namespace onnxgate
