// How fast the SQLite results store appends and reads: 10,000 latency points in 100 runs
// appended to a fresh file, read back whole and through a filter, and one run of a bench's size
// appended to a history that already holds them (what `--history` adds to a bench).
//
//   build/harness/history/onnxgate_history_store_benchmark [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "harness/history/sqlite_store.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

constexpr int kRuns = 100;
constexpr int kPointsPerRun = 100;

class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (fs::temp_directory_path() / "onnxgate-history-bench-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    path_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

HistoryRun BenchRun(int index, int points) {
  HistoryRun run;
  run.context = {"bench",    "commit" + std::to_string(index),
                 "main",     "0.1.0",
                 "onnxgate", "0.1.0",
                 "machine",  "2026-11-29T12:00:00Z"};
  for (int p = 0; p < points; ++p) {
    LatencyPoint point;
    point.key = {"model" + std::to_string(p % 25),
                 "onnxgate",
                 p % 2 ? "ref" : "dnnl",
                 1 + p / 50,
                 "batch=4",
                 1,
                 "wall"};
    point.model_sha256 = "0123456789abcdef";
    point.samples = 27;
    point.median_ms = 1.5 + index * 0.01 + p;
    point.min_ms = point.median_ms * 0.9;
    point.p90_ms = point.median_ms * 1.1;
    point.mean_ms = point.median_ms;
    point.cv = 0.02;
    run.latency.push_back(point);
  }
  return run;
}

std::unique_ptr<ResultsStore> OpenOrDie(const std::string& path) {
  auto store = OpenSqliteResultsStore(path, /*create=*/true);
  if (!store.ok()) std::abort();
  return std::move(store).value();
}

void FillHistory(ResultsStore& store) {
  for (int i = 0; i < kRuns; ++i) {
    if (!store.Append(BenchRun(i, kPointsPerRun)).ok()) std::abort();
  }
}

void BM_Append10000PointsIn100Runs(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    ScratchFolder folder;
    auto store = OpenOrDie(folder.File("history.db"));
    state.ResumeTiming();
    FillHistory(*store);
  }
  state.SetItemsProcessed(state.iterations() * kRuns * kPointsPerRun);
}
BENCHMARK(BM_Append10000PointsIn100Runs)->Unit(benchmark::kMillisecond);

void BM_AppendOneBenchRunTo10000Points(benchmark::State& state) {
  ScratchFolder folder;
  auto store = OpenOrDie(folder.File("history.db"));
  FillHistory(*store);
  int index = kRuns;
  for (auto _ : state) {
    if (!store->Append(BenchRun(index++, 20)).ok()) std::abort();
  }
}
BENCHMARK(BM_AppendOneBenchRunTo10000Points)->Unit(benchmark::kMillisecond);

void BM_OpenAndRead10000Points(benchmark::State& state) {
  ScratchFolder folder;
  const std::string path = folder.File("history.db");
  FillHistory(*OpenOrDie(path));
  size_t points = 0;
  for (auto _ : state) {
    auto store = OpenOrDie(path);
    auto latency = store->ReadLatency({});
    if (!latency.ok()) std::abort();
    points = latency->size();
  }
  state.counters["points"] = static_cast<double>(points);
}
BENCHMARK(BM_OpenAndRead10000Points)->Unit(benchmark::kMillisecond);

void BM_ReadOneSeriesOf10000Points(benchmark::State& state) {
  ScratchFolder folder;
  auto store = OpenOrDie(folder.File("history.db"));
  FillHistory(*store);
  HistoryQuery query;
  query.model_glob = "model7";
  query.ep = "ref";
  size_t points = 0;
  for (auto _ : state) {
    auto latency = store->ReadLatency(query);
    if (!latency.ok()) std::abort();
    points = latency->size();
  }
  state.counters["points"] = static_cast<double>(points);
}
BENCHMARK(BM_ReadOneSeriesOf10000Points)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace onnxgate
