// The bench runner: for one model on one EP with one thread count, the session load time, the
// first-run time, and the steady state measured with Google Benchmark (warm-up, then
// repetitions whose per-repetition times are collected through a custom reporter).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/latency/statistics.h"
#include "harness/models/model_inputs.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

// What the samples measure. Wall time is the latency a user sees; CPU time (all threads of the
// process) ignores the time the process waited for a core, which makes it steadier on machines
// shared with other work but blind to waiting and to parallel speed-up.
enum class BenchClock { kWall, kCpu };
const char* BenchClockName(BenchClock clock);  // "wall", "cpu"
StatusOr<BenchClock> BenchClockFromName(const std::string& name);

// Who times the steady state. kHarness: Google Benchmark around each Run call, in the bench's
// own process (an adapter's pipe and value copies are counted). kRuntime: the runtime's timed
// runs (LoadedModel::TimedRuns), measured inside its own process, wall time only; a runtime
// that does not offer them is an error. kAuto: kRuntime where the loaded model offers timed runs
// and the settings allow them (wall clock, no extra work), kHarness otherwise.
enum class BenchTiming { kAuto, kHarness, kRuntime };
const char* BenchTimingName(BenchTiming timing);  // "auto", "harness", "runtime"
StatusOr<BenchTiming> BenchTimingFromName(const std::string& name);

inline constexpr int kMinRepetitions = 9;

// What a measurement feeds the model: its symbolic dimensions' sizes and where the values come
// from (harness/models/model_feeds.h's FeedSource and ranges).
struct BenchFeeds {
  DimSizes dims;  // only names the model has; others are 1 (or as the input files give them)
  // Empty: generated from `seed`, integers in `ranges` else the model's metadata range. Else .pb
  // files or one .npz giving every input.
  std::vector<std::string> input_files;
  InputRanges ranges;
  uint32_t seed = 1234;
};

struct BenchSettings {
  int repetitions = 10;     // >= kMinRepetitions
  double min_time_s = 0.2;  // per repetition: Google Benchmark adds iterations up to this
  double warmup_s = 0.5;    // Google Benchmark's warm-up before the first repetition
  BenchClock clock = BenchClock::kWall;
  BenchTiming timing = BenchTiming::kAuto;  // kRuntime needs the wall clock and no extra work
  // The graph optimization level the models are loaded at (LoadOptions::optimization_level).
  int optimization_level = 0;
  // Test-only: busy work worth this percentage of one run's time, added to every run, so that
  // the regression detector can be shown a slowdown of known size.
  double extra_work_percent = 0.0;
  // kAllow and kWarn: nodes may fall back to a later provider, and the measurement records
  // where (BenchMeasurement::fallback). kForbid: one provider takes every node, a list's nodes
  // stay within the list, else the measurement fails.
  FallbackPolicy fallback = FallbackPolicy::kAllow;
  BenchFeeds feeds;
};

struct BenchMeasurement {
  std::string model;  // file stem
  std::string model_path;
  std::string model_sha256;
  std::string ep;
  int threads = 1;
  int optimization_level = 0;
  // The symbolic dimensions bound for this measurement, "batch=4,seq=128" (sorted by name);
  // empty when the model has none.
  std::string shapes;
  // Who measured the samples: "harness" (Google Benchmark around each Run call, in the bench's
  // worker) or "runtime" (the runtime's timed-runs request, inside its own process, so no pipe
  // or copy is counted).
  std::string timed_by = "harness";
  // The nodes placed outside the target's first provider, "3 of 41 nodes on ref (Gather x2,
  // Shape x1; 3 shape-only)"; empty when none fell back.
  std::string fallback;
  // The clock the samples were read on: "wall" or "cpu" (BenchClockName); always "wall" when
  // timed by the runtime.
  std::string clock = "wall";
  double load_ms = 0.0;
  double first_run_ms = 0.0;
  int64_t iterations_per_repetition = 0;
  int64_t extra_work_units = 0;    // RunBusyWork units added to every run (test-only option)
  std::vector<double> samples_ms;  // per repetition, on the chosen clock
  // Per repetition as Google Benchmark reported it, for its JSON format (harness/latency/
  // gbench_json.h): both clocks' mean time of one run, and the runs in the repetition.
  std::vector<double> real_ms;
  std::vector<double> cpu_ms;
  std::vector<int64_t> iterations;
  SampleSummary summary;
};

// Hooks for progress output while a measurement runs.
class BenchObserver {
 public:
  virtual ~BenchObserver() = default;
  virtual void OnLoaded(double load_ms, double first_run_ms) {}
  // Called each time Google Benchmark enters the timed loop (warm-up, estimation, repetitions).
  virtual void OnTick() {}
};

// Loads `model_path` on `ep` with `threads` intra-op threads and measures it. Errors name the
// model and EP (load or run failures, bad settings).
StatusOr<BenchMeasurement> MeasureModel(const RuntimeUnderTest& runtime,
                                        const std::string& model_path, const std::string& ep,
                                        int threads, const BenchSettings& settings,
                                        BenchObserver* observer = nullptr);

// One side of a measurement: a model on a runtime's EP.
struct BenchTarget {
  const RuntimeUnderTest* runtime = nullptr;
  std::string model_path;
  std::string ep;
  // Whether the test-only extra work (BenchSettings::extra_work_percent) slows this side.
  bool extra_work = true;
};

// Two sides measured in one process, side by side (bench --against): both are loaded and run
// once, each warms up and sizes its repetitions by time (settings.min_time_s) once, and then
// their repetitions take turns (first, second, second, first, ...), each of the same number of
// runs as its sizing repetition found. Sample i of one side is thus measured right beside sample
// i of the other, which is what the paired comparison (comparator.h) needs. The measurements
// come back in the order given.
StatusOr<std::array<BenchMeasurement, 2>> MeasurePair(const BenchTarget& first,
                                                      const BenchTarget& second, int threads,
                                                      const BenchSettings& settings,
                                                      BenchObserver* observer = nullptr);

// The model's name as the bench reports it: the file name without folder and extension.
std::string ModelNameFromPath(const std::string& path);

}  // namespace onnxgate
