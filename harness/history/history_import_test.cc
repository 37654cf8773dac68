// Tests of `history import`: a baseline file and a JSON report as history entries, and a bad
// file that imports nothing.
#include "harness/history/history_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "harness/history/testing/memory_store.h"
#include "reports/json_writer.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class HistoryImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "history_import_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (fs::path(dir_) / name).string(); }

  std::string dir_;
};

BaselineFile Baseline() {
  BaselineFile f;
  f.fingerprint = {"Test CPU", 2, "Release"};
  f.runtime = "onnxgate";
  f.ep = "ref";
  f.clock = "cpu";
  f.optimization_level = 1;
  f.tool_version = "0.5";
  f.updated = "2026-01-02T03:04:05Z";
  BaselineEntry e;
  e.model = "mlp";
  e.threads = 2;
  e.shapes = "batch=4";
  e.model_sha256 = std::string(64, 'b');
  e.samples_ms = {1.0, 1.1, 1.2};
  e.median_ms = 1.1;
  e.min_ms = 1.0;
  e.p90_ms = 1.2;
  e.mean_ms = 1.1;
  e.cv = 0.05;
  f.entries = {e};
  return f;
}

RunRecord BenchReport() {
  RunRecord run;
  run.tool_version = "0.6";
  run.runtime_name = "onnxgate";
  run.command_line = {"onnxgate", "bench", "--optimization-level", "2", "--clock=cpu"};
  run.host.cpu_model = "Test CPU";
  run.host.logical_cores = 2;
  LatencyRecord r;
  r.model = "mlp";
  r.ep = "ref";
  r.repetitions = 9;
  r.median_ms = 2.5;
  run.latency = {r};
  return run;
}

TEST_F(HistoryImportTest, ABaselineIsOneBenchRun) {
  ASSERT_TRUE(WriteBaseline(Baseline(), Path("ref.json")).ok());
  StatusOr<HistoryRun> run = ReadHistoryFile(Path("ref.json"), {"c1", "main"});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->context.kind, "bench");
  EXPECT_EQ(run->context.commit, "c1");
  EXPECT_EQ(run->context.branch, "main");
  EXPECT_EQ(run->context.machine, "test-cpu_2c_release");
  EXPECT_EQ(run->context.recorded, "2026-01-02T03:04:05Z");
  ASSERT_EQ(run->latency.size(), 1u);
  const LatencyPoint& p = run->latency[0];
  EXPECT_EQ(p.key.model, "mlp");
  EXPECT_EQ(p.key.ep, "ref");
  EXPECT_EQ(p.key.threads, 2);
  EXPECT_EQ(p.key.shapes, "batch=4");
  EXPECT_EQ(p.key.clock, "cpu");
  EXPECT_EQ(p.key.optimization_level, 1);
  EXPECT_EQ(p.samples, 3);
  EXPECT_DOUBLE_EQ(p.median_ms, 1.1);
}

TEST_F(HistoryImportTest, AJsonReportIsItsRunWithLevelAndClockFromItsCommandLine) {
  ASSERT_TRUE(WriteRunJson(BenchReport(), Path("bench.json")).ok());
  StatusOr<HistoryRun> run = ReadHistoryFile(Path("bench.json"), {"c2", "dev"});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->context.kind, "bench");
  EXPECT_EQ(run->context.commit, "c2");
  EXPECT_EQ(run->context.tool_version, "0.6");
  EXPECT_THAT(run->context.machine, HasSubstr("test-cpu_2c_"));
  ASSERT_EQ(run->latency.size(), 1u);
  EXPECT_EQ(run->latency[0].key.optimization_level, 2);
  EXPECT_EQ(run->latency[0].key.clock, "cpu");
  EXPECT_DOUBLE_EQ(run->latency[0].median_ms, 2.5);
}

TEST_F(HistoryImportTest, FilesAreAppendedInOrder) {
  ASSERT_TRUE(WriteBaseline(Baseline(), Path("ref.json")).ok());
  ASSERT_TRUE(WriteRunJson(BenchReport(), Path("bench.json")).ok());
  MemoryResultsStore store;
  StatusOr<std::vector<int64_t>> ids =
      ImportHistoryFiles(store, {Path("ref.json"), Path("bench.json")}, {});
  ASSERT_TRUE(ids.ok()) << ids.status().message();
  EXPECT_EQ(*ids, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(store.runs()[0].context.tool_version, "0.5");
  EXPECT_EQ(store.runs()[1].context.tool_version, "0.6");
}

TEST_F(HistoryImportTest, ABadFileImportsNothingAndIsNamed) {
  ASSERT_TRUE(WriteBaseline(Baseline(), Path("ref.json")).ok());
  std::ofstream(Path("other.json")) << "{\"name\": 1}";
  std::ofstream(Path("broken.json")) << "{not json";
  MemoryResultsStore store;
  for (const char* bad : {"other.json", "broken.json", "missing.json"}) {
    StatusOr<std::vector<int64_t>> ids =
        ImportHistoryFiles(store, {Path("ref.json"), Path(bad)}, {});
    ASSERT_FALSE(ids.ok()) << bad;
    EXPECT_THAT(ids.status().message(), HasSubstr(bad));
  }
  EXPECT_TRUE(store.runs().empty());
}

TEST_F(HistoryImportTest, AStoreErrorIsReturned) {
  ASSERT_TRUE(WriteBaseline(Baseline(), Path("ref.json")).ok());
  MemoryResultsStore store("db.sqlite");
  store.fail_next(Unavailable("db.sqlite: attempt to write a readonly database"));
  StatusOr<std::vector<int64_t>> ids = ImportHistoryFiles(store, {Path("ref.json")}, {});
  ASSERT_FALSE(ids.ok());
  EXPECT_THAT(ids.status().message(), HasSubstr("db.sqlite"));
}

}  // namespace
}  // namespace onnxgate
