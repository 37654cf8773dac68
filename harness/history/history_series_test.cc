// Tests of the history's series: grouping in run order, the change points found over them, and
// `history check`'s recent regressions named by their first commit.
#include "harness/history/history_series.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "harness/history/testing/memory_store.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// A value near `base` with a little deterministic noise (under 0.5%).
double Noisy(double base, int i) { return base * (1.0 + 0.004 * std::sin(i * 1.7)); }

LatencyPoint Latency(const std::string& model, double median_ms) {
  LatencyPoint p;
  p.key.model = model;
  p.key.runtime = "onnxgate";
  p.key.ep = "ref";
  p.median_ms = median_ms;
  return p;
}

CasePoint Case(const std::string& name, std::optional<double> margin) {
  CasePoint p;
  p.key = {"suite", name, "onnxgate", "ref"};
  p.verdict = "PASS";
  p.margin = margin;
  return p;
}

HistoryRun RunAt(int commit, const std::string& kind) {
  HistoryRun run;
  run.context.kind = kind;
  run.context.commit = "c" + std::to_string(commit);
  run.context.branch = "main";
  return run;
}

// 30 commits of two models; `slow` from commit `step` on is `factor` times slower.
MemoryResultsStore BenchHistory(int step, double factor) {
  MemoryResultsStore store;
  for (int i = 0; i < 30; ++i) {
    HistoryRun run = RunAt(i, "bench");
    run.latency.push_back(Latency("steady", Noisy(2.0, i)));
    run.latency.push_back(Latency("slow", Noisy(i >= step ? 10.0 * factor : 10.0, i)));
    EXPECT_TRUE(store.Append(run).ok());
  }
  return store;
}

HistorySeries Read(MemoryResultsStore& store) {
  StatusOr<HistorySeries> series = ReadHistorySeries(store, {}, SeriesSettings{});
  EXPECT_TRUE(series.ok()) << series.status().message();
  return series.ok() ? *series : HistorySeries{};
}

TEST(HistorySeriesTest, PointsGroupIntoSeriesByKeyInRunOrder) {
  MemoryResultsStore store = BenchHistory(100, 1.0);
  const HistorySeries series = Read(store);
  ASSERT_EQ(series.latency.size(), 2u);
  EXPECT_EQ(series.latency[0].key.model, "slow");
  EXPECT_EQ(series.latency[1].key.model, "steady");
  ASSERT_EQ(series.latency[0].points.size(), 30u);
  for (size_t i = 0; i < 30; ++i) {
    EXPECT_EQ(series.latency[0].points[i].context.commit, "c" + std::to_string(i));
  }
  EXPECT_TRUE(series.latency[0].change_points.empty());
  EXPECT_TRUE(FindRecentRegressions(series, 15).empty());
}

TEST(HistorySeriesTest, AStepUpIsARegressionNamedByItsFirstCommit) {
  MemoryResultsStore store = BenchHistory(20, 1.06);
  const HistorySeries series = Read(store);
  ASSERT_EQ(series.latency[0].change_points.size(), 1u);
  EXPECT_EQ(series.latency[0].change_points[0].index, 20u);
  const std::vector<HistoryRegression> found = FindRecentRegressions(series, 15);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].first_commit, "c20");
  EXPECT_EQ(found[0].first_run_id, 21);
  EXPECT_EQ(found[0].series, LatencyKeyLabel(series.latency[0].key));
  EXPECT_THAT(found[0].description, HasSubstr("+6."));
}

TEST(HistorySeriesTest, AStepOlderThanTheLastRunsIsNotReported) {
  MemoryResultsStore store = BenchHistory(12, 1.06);
  EXPECT_TRUE(FindRecentRegressions(Read(store), 15).empty());
  EXPECT_EQ(FindRecentRegressions(Read(store), 20).size(), 1u);
}

TEST(HistorySeriesTest, AStepDownIsAnImprovementNotARegression) {
  MemoryResultsStore store = BenchHistory(20, 0.9);
  const HistorySeries series = Read(store);
  EXPECT_EQ(series.latency[0].change_points.size(), 1u);
  EXPECT_TRUE(FindRecentRegressions(series, 15).empty());
}

TEST(HistorySeriesTest, MarginSeriesHoldOnlyPointsWithAMarginAndAStepUpIsARegression) {
  MemoryResultsStore store;
  for (int i = 0; i < 30; ++i) {
    HistoryRun run = RunAt(i, "gate");
    run.cases.push_back(Case("grows", Noisy(i >= 18 ? 0.3 : 0.2, i)));
    run.cases.push_back(Case("none", std::nullopt));
    ASSERT_TRUE(store.Append(run).ok());
  }
  const HistorySeries series = Read(store);
  ASSERT_EQ(series.margins.size(), 1u);
  EXPECT_EQ(series.margins[0].key.case_name, "grows");
  EXPECT_EQ(series.margins[0].points.size(), 30u);
  const std::vector<HistoryRegression> found = FindRecentRegressions(series, 15);
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].first_commit, "c18");
  EXPECT_EQ(found[0].series, "suite/grows onnxgate/ref");
  EXPECT_THAT(found[0].description, HasSubstr("error margin"));
}

TEST(HistorySeriesTest, AStoreErrorIsReturned) {
  MemoryResultsStore store;
  store.fail_next(Unavailable("db.sqlite: database is locked"));
  StatusOr<HistorySeries> series = ReadHistorySeries(store, {}, SeriesSettings{});
  ASSERT_FALSE(series.ok());
  EXPECT_THAT(series.status().message(), HasSubstr("db.sqlite"));
}

TEST(HistorySeriesTest, ChecksTenThousandPointsQuickly) {
  MemoryResultsStore store;
  for (int i = 0; i < 100; ++i) {
    HistoryRun run = RunAt(i, "bench");
    for (int m = 0; m < 100; ++m) {
      run.latency.push_back(Latency("m" + std::to_string(m), Noisy(1.0 + m, i + m)));
    }
    ASSERT_TRUE(store.Append(run).ok());
  }
  const HistorySeries series = Read(store);
  EXPECT_EQ(series.latency.size(), 100u);
  EXPECT_TRUE(FindRecentRegressions(series, 15).empty());
}

}  // namespace
}  // namespace onnxgate
