// The contract of results_store.h, held by both stores: a SQLite file in a temporary folder and
// a fresh database on a PostgreSQL server started by the test (skipped, with the reason, where
// none can start).
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>

#include "gtest/gtest.h"
#include "harness/history/results_store.h"
#include "harness/history/store_test_util.h"

namespace onnxgate {
namespace {

enum class Backend { kSqlite, kPostgres };
void PrintTo(Backend backend, std::ostream* out) {
  *out << (backend == Backend::kSqlite ? "sqlite" : "postgres");
}

class ResultsStoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kSqlite) {
      location_ = folder_.File("history.db");
      return;
    }
    StatusOr<std::string> url = FreshPostgresDatabase();
    if (!url.ok() && url.status().code() == StatusCode::kUnavailable) {
      GTEST_SKIP() << "no PostgreSQL server can start here: " << url.status().message();
    }
    ASSERT_TRUE(url.ok()) << url.status().ToString();
    location_ = *url;
  }

  std::unique_ptr<ResultsStore> Open(bool create = true) {
    StatusOr<std::unique_ptr<ResultsStore>> store = OpenResultsStore(location_, create);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  TempFolder folder_;
  std::string location_;
};

TEST_P(ResultsStoreTest, RoundTripKeepsEveryField) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  std::vector<HistoryRun> runs = {SampleRun(0), SampleRun(1), SampleRun(2)};
  runs[1].cases[0].margin = std::numeric_limits<double>::infinity();
  runs[2].latency[0].key.model = "it's \"quoted\"; DROP TABLE runs; --";
  runs[2].context.branch = "feature/ünïcode";
  std::vector<int64_t> ids;
  for (const HistoryRun& run : runs) {
    StatusOr<int64_t> id = store->Append(run);
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    ids.push_back(*id);
  }
  auto latency = store->ReadLatency({});
  auto cases = store->ReadCases({});
  ASSERT_TRUE(latency.ok()) << latency.status().ToString();
  ASSERT_TRUE(cases.ok()) << cases.status().ToString();
  ASSERT_EQ(latency->size(), 6u);
  ASSERT_EQ(cases->size(), 6u);
  for (size_t i = 0; i < latency->size(); ++i) {
    const Stored<LatencyPoint>& got = (*latency)[i];
    const HistoryRun& run = runs[i / 2];
    EXPECT_EQ(got.run_id, ids[i / 2]);
    EXPECT_EQ(Differences(got.context, run.context), "") << "point " << i;
    // Within a run, points come in key order: "it's..." sorts before "mlp" and "resnet18".
    const LatencyPoint* want = &run.latency[i % 2];
    for (const LatencyPoint& p : run.latency) {
      if (p.key == got.point.key) want = &p;
    }
    EXPECT_EQ(Differences(got.point, *want), "") << "point " << i;
  }
  for (size_t i = 0; i < cases->size(); ++i) {
    EXPECT_EQ((*cases)[i].run_id, ids[i / 2]);
    EXPECT_EQ(Differences((*cases)[i].point, runs[i / 2].cases[i % 2]), "") << "case " << i;
  }
}

TEST_P(ResultsStoreTest, ReadsComeInAppendOrder) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  std::vector<int64_t> ids;
  for (int i = 0; i < 12; ++i) {
    StatusOr<int64_t> id = store->Append(SampleRun(i));
    ASSERT_TRUE(id.ok()) << id.status().ToString();
    if (!ids.empty()) {
      EXPECT_GT(*id, ids.back());
    }
    ids.push_back(*id);
  }
  HistoryQuery query;
  query.model_glob = "mlp";
  auto latency = store->ReadLatency(query);
  ASSERT_TRUE(latency.ok()) << latency.status().ToString();
  ASSERT_EQ(latency->size(), 12u);
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ((*latency)[i].run_id, ids[i]);
    EXPECT_EQ((*latency)[i].context.commit, "commit" + std::to_string(i));
  }
}

TEST_P(ResultsStoreTest, HistorySurvivesReopening) {
  {
    auto store = Open();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Append(SampleRun(0)).ok());
  }
  auto store = Open(/*create=*/false);
  ASSERT_NE(store, nullptr);
  auto latency = store->ReadLatency({});
  ASSERT_TRUE(latency.ok()) << latency.status().ToString();
  EXPECT_EQ(latency->size(), 2u);
}

// Three runs on different kinds, branches and machines, each with points on two runtimes, two
// EPs and three models.
std::vector<HistoryRun> FilterRuns() {
  std::vector<HistoryRun> runs = {SampleRun(0, "main", "m1", "bench"),
                                  SampleRun(1, "dev", "m1", "bench"),
                                  SampleRun(2, "main", "m2", "gate")};
  for (HistoryRun& run : runs) {
    LatencyPoint ort = run.latency[0];
    ort.key.runtime = "ort";
    ort.key.ep = "cpu";
    ort.key.model = "resnet50";
    run.latency.push_back(ort);
    CasePoint dnnl = run.cases[0];
    dnnl.key.ep = "dnnl";
    dnnl.key.case_name = "test_conv";
    run.cases.push_back(dnnl);
  }
  return runs;
}

TEST_P(ResultsStoreTest, EveryFilterFieldSelects) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  for (const HistoryRun& run : FilterRuns()) ASSERT_TRUE(store->Append(run).ok());
  auto count_latency = [&](HistoryQuery q) {
    auto points = store->ReadLatency(q);
    EXPECT_TRUE(points.ok()) << points.status().ToString();
    return points.ok() ? points->size() : 0u;
  };
  auto count_cases = [&](HistoryQuery q) {
    auto points = store->ReadCases(q);
    EXPECT_TRUE(points.ok()) << points.status().ToString();
    return points.ok() ? points->size() : 0u;
  };
  EXPECT_EQ(count_latency({}), 9u);
  EXPECT_EQ(count_latency({"gate", "", "", "", "", ""}), 3u);
  EXPECT_EQ(count_latency({"", "dev", "", "", "", ""}), 3u);
  EXPECT_EQ(count_latency({"", "", "m2", "", "", ""}), 3u);
  EXPECT_EQ(count_latency({"", "", "", "resnet*", "", ""}), 6u);
  EXPECT_EQ(count_latency({"", "", "", "?lp", "", ""}), 3u);
  EXPECT_EQ(count_latency({"", "", "", "", "ort", ""}), 3u);
  EXPECT_EQ(count_latency({"", "", "", "", "", "ref"}), 6u);
  EXPECT_EQ(count_latency({"bench", "main", "m1", "mlp", "onnxgate", "ref"}), 1u);
  EXPECT_EQ(count_latency({"", "nobranch", "", "", "", ""}), 0u);
  EXPECT_EQ(count_cases({}), 9u);
  EXPECT_EQ(count_cases({"bench", "", "", "", "", ""}), 6u);
  EXPECT_EQ(count_cases({"", "", "", "test_[ac]*", "", ""}), 6u);
  EXPECT_EQ(count_cases({"", "", "", "", "", "dnnl"}), 3u);
  EXPECT_EQ(count_cases({"", "main", "m2", "test_conv", "onnxgate", "dnnl"}), 1u);
}

TEST_P(ResultsStoreTest, AFailedAppendLeavesNothingBehind) {
  auto store = Open();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Append(SampleRun(0)).ok());
  HistoryRun bad = SampleRun(1);
  for (int i = 0; i < 5; ++i) bad.latency.push_back(bad.latency[0]);
  bad.latency[4].median_ms = std::nan("");  // rejected after four points were written
  StatusOr<int64_t> appended = store->Append(bad);
  ASSERT_FALSE(appended.ok());
  EXPECT_EQ(appended.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(appended.status().message().find(store->name()), std::string::npos)
      << appended.status().message();
  EXPECT_NE(appended.status().message().find("latency point 5"), std::string::npos)
      << appended.status().message();
  EXPECT_NE(appended.status().message().find("NaN"), std::string::npos);
  HistoryRun bad_case = SampleRun(2);
  bad_case.cases[1].margin = std::nan("");  // after the run's latency and first case
  ASSERT_FALSE(store->Append(bad_case).ok());

  auto latency = store->ReadLatency({});
  auto cases = store->ReadCases({});
  ASSERT_TRUE(latency.ok() && cases.ok());
  EXPECT_EQ(latency->size(), 2u);
  EXPECT_EQ(cases->size(), 2u);
  for (const auto& p : *latency) EXPECT_EQ(p.context.commit, "commit0");
  // The store goes on working.
  ASSERT_TRUE(store->Append(SampleRun(3)).ok());
  latency = store->ReadLatency({});
  ASSERT_TRUE(latency.ok());
  EXPECT_EQ(latency->size(), 4u);
}

TEST_P(ResultsStoreTest, NothingThereWithoutCreateIsNotFound) {
  StatusOr<std::unique_ptr<ResultsStore>> store = OpenResultsStore(location_, /*create=*/false);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StatusCode::kNotFound) << store.status().ToString();
  EXPECT_NE(store.status().message().find("history database"), std::string::npos);
}

// Two processes append 50 runs each at once: 100 runs, each whole, each writer's in its order.
TEST_P(ResultsStoreTest, ConcurrentWritersFromTwoProcesses) {
  constexpr int kRunsPerWriter = 50;
  pid_t writers[2];
  for (int w = 0; w < 2; ++w) {
    writers[w] = fork();
    ASSERT_GE(writers[w], 0);
    if (writers[w] == 0) {
      auto store = OpenResultsStore(location_, /*create=*/true);
      if (!store.ok()) {
        fprintf(stderr, "writer %d: %s\n", w, store.status().ToString().c_str());
        _exit(10);
      }
      for (int i = 0; i < kRunsPerWriter; ++i) {
        if (!(*store)->Append(SampleRun(i, "writer" + std::to_string(w))).ok()) _exit(11);
      }
      _exit(0);
    }
  }
  for (pid_t writer : writers) {
    int status = 0;
    ASSERT_EQ(waitpid(writer, &status, 0), writer);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer status " << status;
  }
  auto store = Open(/*create=*/false);
  ASSERT_NE(store, nullptr);
  auto latency = store->ReadLatency({});
  ASSERT_TRUE(latency.ok()) << latency.status().ToString();
  ASSERT_EQ(latency->size(), 2u * 2 * kRunsPerWriter);
  std::map<int64_t, int> points_per_run;
  std::map<std::string, int> next_index;  // per writer
  for (size_t i = 0; i < latency->size(); i += 2) {
    const auto& p = (*latency)[i];
    points_per_run[p.run_id] += 1;
    EXPECT_EQ((*latency)[i + 1].run_id, p.run_id);
    const int index = next_index[p.context.branch]++;
    EXPECT_EQ(p.context.commit, "commit" + std::to_string(index)) << p.context.branch;
    EXPECT_EQ(Differences(p.point, SampleRun(index).latency[0]), "");
  }
  EXPECT_EQ(points_per_run.size(), 2u * kRunsPerWriter);
  EXPECT_EQ(next_index["writer0"], kRunsPerWriter);
  EXPECT_EQ(next_index["writer1"], kRunsPerWriter);
}

INSTANTIATE_TEST_SUITE_P(Stores, ResultsStoreTest,
                         ::testing::Values(Backend::kSqlite, Backend::kPostgres),
                         [](const ::testing::TestParamInfo<Backend>& info) {
                           return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
                         });

}  // namespace
}  // namespace onnxgate
