// The bench runner: load and first run timed directly, steady state through Google Benchmark's
// library API with a reporter that keeps every repetition's time.
#include "harness/latency/bench_runner.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <utility>

#include "harness/ep_target.h"
#include "harness/latency/bench_fallback.h"
#include "harness/latency/bench_shapes.h"
#include "harness/latency/extra_work.h"
#include "harness/models/model_feeds.h"
#include "runtime/base/atomic_file.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Keeps the per-repetition results (run_type RT_Iteration) and drops the aggregates Google
// Benchmark computes itself (mean, median, stddev, cv), which lose the samples the Mann-Whitney
// test needs.
class SampleReporter : public benchmark::BenchmarkReporter {
 public:
  explicit SampleReporter(BenchClock clock) : clock_(clock) {}

  bool ReportContext(const Context&) override { return true; }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      if (run.error_occurred) {
        error_ = run.error_message;
        continue;
      }
      const double runs = static_cast<double>(run.iterations);
      real_ms_.push_back(run.real_accumulated_time * 1e3 / runs);
      cpu_ms_.push_back(run.cpu_accumulated_time * 1e3 / runs);
      samples_ms_.push_back(clock_ == BenchClock::kWall ? real_ms_.back() : cpu_ms_.back());
      iterations_.push_back(run.iterations);
    }
  }

  const std::vector<double>& samples_ms() const { return samples_ms_; }
  const std::vector<double>& real_ms() const { return real_ms_; }
  const std::vector<double>& cpu_ms() const { return cpu_ms_; }
  const std::vector<int64_t>& iterations() const { return iterations_; }
  const std::string& error() const { return error_; }

 private:
  BenchClock clock_;
  std::vector<double> samples_ms_;
  std::vector<double> real_ms_;
  std::vector<double> cpu_ms_;
  std::vector<int64_t> iterations_;
  std::string error_;
};

// Google Benchmark keeps its registered benchmarks in a process-wide list; one measurement at a
// time registers, runs and clears it.
std::mutex& BenchmarkMutex() {
  static std::mutex m;
  return m;
}

// Median time of a few runs (at least 3, more for fast models, at most 50), to size the extra
// work as a share of one run.
StatusOr<double> EstimateRunMs(const LoadedModel& model, const std::vector<NamedValue>& feeds) {
  std::vector<double> times;
  const auto start = Clock::now();
  while (times.size() < 3 || (times.size() < 50 && MsSince(start) < 200.0)) {
    const auto t0 = Clock::now();
    auto out = model.Run(feeds);
    if (!out.ok()) return out.status();
    times.push_back(MsSince(t0));
  }
  return Percentile(times, 0.5);
}

Status ValidateSettings(const BenchSettings& s) {
  if (s.repetitions < kMinRepetitions) {
    return InvalidArgument("the bench needs at least " + std::to_string(kMinRepetitions) +
                           " repetitions (the Mann-Whitney test cannot reject equality at 0.01 "
                           "with fewer), got " +
                           std::to_string(s.repetitions));
  }
  if (!(s.min_time_s > 0.0) || !(s.warmup_s >= 0.0)) {
    return InvalidArgument("the bench needs a positive time per repetition and a warm-up >= 0");
  }
  if (s.optimization_level < 0 || s.optimization_level > kMaxOptimizationLevel) {
    return InvalidArgument("the optimization level must be 0 to " +
                           std::to_string(kMaxOptimizationLevel) + ", got " +
                           std::to_string(s.optimization_level));
  }
  if (!(s.extra_work_percent >= 0.0 && s.extra_work_percent <= 1000.0)) {
    return InvalidArgument("extra work must be between 0 and 1000 percent, got " +
                           std::to_string(s.extra_work_percent));
  }
  return OkStatus();
}

}  // namespace

const char* BenchClockName(BenchClock clock) { return clock == BenchClock::kWall ? "wall" : "cpu"; }

StatusOr<BenchClock> BenchClockFromName(const std::string& name) {
  if (name == "wall") return BenchClock::kWall;
  if (name == "cpu") return BenchClock::kCpu;
  return InvalidArgument("unknown clock '" + name + "': expected wall or cpu");
}

std::string ModelNameFromPath(const std::string& path) {
  std::string name =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  const size_t dot = name.find_last_of('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name;
}

namespace {

// A model loaded for a bench, its feeds made and its first run done: what the steady state
// times. `m` holds everything but the samples.
struct BenchSubject {
  BenchMeasurement m;
  std::unique_ptr<LoadedModel> model;
  std::vector<NamedValue> feeds;
  std::string what;  // "benchmarking <model> on <ep> with N thread(s)", for errors
};

// Unimplemented naming the first node placed on a provider outside `providers` (the built-in
// runtime appends ref to every list that lacks it).
Status CheckPlacedWithin(const LoadedModel& model, const std::vector<std::string>& providers) {
  for (const NodePlacement& p : model.placements()) {
    if (std::find(providers.begin(), providers.end(), p.provider) != providers.end()) continue;
    return Unimplemented(p.op_type + " node '" + p.node_name + "' runs on '" + p.provider +
                         "', outside the target's providers");
  }
  return OkStatus();
}

// The load options of a measurement. Under --fallback forbid a latency number must be the
// target's own: one provider takes every node; a list's nodes may fall back within the list,
// never outside it (CheckPlacedWithin). Under allow and warn the runtime may place nodes on a
// later provider (the built-in runtime appends ref), and the measurement records where.
LoadOptions BenchLoadOptions(const BenchTarget& target, int threads,
                             const BenchSettings& settings) {
  LoadOptions options;
  options.providers = ProvidersOf(target.ep);
  options.fallback = settings.fallback;
  if (settings.fallback == FallbackPolicy::kForbid && options.providers.size() > 1) {
    options.fallback = FallbackPolicy::kAllow;
  }
  options.intra_op_threads = threads;
  options.optimization_level = settings.optimization_level;
  return options;
}

// The subject's feeds as the settings say (generated at the measurement's --dim sizes, or read
// from the --input files), and the shapes they bind.
Status MakeBenchFeeds(const BenchTarget& target, const BenchSettings& settings, BenchSubject* s) {
  const BenchFeeds& f = settings.feeds;
  auto feeds = MakeModelFeeds(*s->model, target.model_path,
                              FeedSource{f.input_files, f.dims, f.seed}, f.ranges);
  if (!feeds.ok()) return feeds.status().WithContext(s->what);
  s->feeds = std::move(feeds).value();
  s->m.shapes = BoundShapes(s->model->inputs(), s->feeds);
  return OkStatus();
}

StatusOr<BenchSubject> Prepare(const BenchTarget& target, int threads,
                               const BenchSettings& settings, BenchObserver* observer) {
  BenchSubject s;
  const std::string shapes = DimSizesText(settings.feeds.dims);
  s.what = "benchmarking " + target.model_path + (shapes.empty() ? "" : " at " + shapes) + " on " +
           target.ep + " with " + std::to_string(threads) + " thread(s)";
  BenchMeasurement& m = s.m;
  m.model = ModelNameFromPath(target.model_path);
  m.model_path = target.model_path;
  m.ep = target.ep;
  m.threads = threads;
  m.optimization_level = settings.optimization_level;
  m.shapes = shapes;
  {
    auto file = ModelFile::Read(target.model_path);
    if (!file.ok()) return file.status().WithContext(s.what);
    m.model_sha256 = file->sha256();
  }
  const LoadOptions options = BenchLoadOptions(target, threads, settings);
  auto load_start = Clock::now();
  auto loaded = target.runtime->Load(target.model_path, options);
  if (!loaded.ok()) return loaded.status().WithContext(s.what);  // it names the load
  m.load_ms = MsSince(load_start);
  s.model = std::move(loaded).value();
  if (settings.fallback == FallbackPolicy::kForbid) {
    if (Status within = CheckPlacedWithin(*s.model, options.providers); !within.ok()) {
      return within.WithContext(s.what);
    }
  }
  ONNXGATE_RETURN_IF_ERROR(MakeBenchFeeds(target, settings, &s));

  const auto first_start = Clock::now();
  auto first = s.model->Run(s.feeds);
  if (!first.ok()) return first.status().WithContext(s.what + ": first run");
  m.first_run_ms = MsSince(first_start);
  if (observer != nullptr) observer->OnLoaded(m.load_ms, m.first_run_ms);
  // After the first run: a runtime may only know where the nodes ran once it has run.
  if (settings.fallback != FallbackPolicy::kForbid) {
    m.fallback = BenchFallbackOf(*s.model, options.providers.front(), target.model_path);
  }

  if (target.extra_work && settings.extra_work_percent > 0.0) {
    auto run_ms = EstimateRunMs(*s.model, s.feeds);
    if (!run_ms.ok()) return run_ms.status().WithContext(s.what + ": estimating the run time");
    m.extra_work_units = static_cast<int64_t>(
        std::llround(settings.extra_work_percent / 100.0 * *run_ms * BusyWorkUnitsPerMs()));
  }
  return s;
}

// How Google Benchmark sizes the repetitions of one call: `min_time_s` each after a warm-up, or
// exactly `iterations` runs each (0: sized by time).
struct Timing {
  int repetitions = 1;
  double min_time_s = 0.0;
  double warmup_s = 0.0;
  int64_t iterations = 0;
};

// The repetitions of one Google Benchmark call, as its reporter kept them.
struct Repetitions {
  std::vector<double> samples_ms, real_ms, cpu_ms;
  std::vector<int64_t> iterations;
};

// Times `timing.repetitions` repetitions of the subject's runs.
StatusOr<Repetitions> TimeRepetitions(const BenchSubject& s, const BenchSettings& settings,
                                      const Timing& timing, BenchObserver* observer) {
  std::lock_guard<std::mutex> lock(BenchmarkMutex());
  std::string run_error;
  const LoadedModel& model = *s.model;
  const std::vector<NamedValue>& inputs = s.feeds;
  const int64_t extra_units = s.m.extra_work_units;
  auto body = [&](benchmark::State& state) {
    if (observer != nullptr) observer->OnTick();
    for (auto _ : state) {
      StatusOr<std::vector<Value>> out = model.Run(inputs);
      if (!out.ok()) {
        run_error = out.status().ToString();
        state.SkipWithError("Run failed");
        break;
      }
      benchmark::DoNotOptimize(out);
      if (extra_units > 0) RunBusyWork(extra_units);
    }
  };
  benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark("onnxgate_bench", body);
  b->Repetitions(timing.repetitions)->ReportAggregatesOnly(false)->Unit(benchmark::kMillisecond);
  if (timing.iterations > 0) {
    b->Iterations(timing.iterations);
  } else {
    b->MinTime(timing.min_time_s)->MinWarmUpTime(timing.warmup_s);
  }
  if (settings.clock == BenchClock::kWall) {
    b->UseRealTime();
  } else {
    b->MeasureProcessCPUTime();
  }
  SampleReporter reporter(settings.clock);
  // The full name carries the settings ("onnxgate_bench/min_time:0.050/repeats:9/real_time").
  benchmark::RunSpecifiedBenchmarks(&reporter, "^onnxgate_bench(/.*)?$");
  benchmark::ClearRegisteredBenchmarks();

  if (!run_error.empty()) return Internal(s.what + ": a steady-state run failed: " + run_error);
  if (!reporter.error().empty()) {
    return Internal(s.what + ": Google Benchmark reported: " + reporter.error());
  }
  if (static_cast<int>(reporter.samples_ms().size()) != timing.repetitions) {
    return Internal(s.what + ": expected " + std::to_string(timing.repetitions) +
                    " repetitions from Google Benchmark, got " +
                    std::to_string(reporter.samples_ms().size()));
  }
  return Repetitions{reporter.samples_ms(), reporter.real_ms(), reporter.cpu_ms(),
                     reporter.iterations()};
}

// Adds repetitions to a measurement's samples and summary.
void Append(const Repetitions& r, BenchMeasurement* m) {
  auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(m->samples_ms, r.samples_ms);
  append(m->real_ms, r.real_ms);
  append(m->cpu_ms, r.cpu_ms);
  append(m->iterations, r.iterations);
  m->iterations_per_repetition = m->iterations.back();
  m->summary = Summarize(m->samples_ms);
}

}  // namespace

StatusOr<BenchMeasurement> MeasureModel(const RuntimeUnderTest& runtime,
                                        const std::string& model_path, const std::string& ep,
                                        int threads, const BenchSettings& settings,
                                        BenchObserver* observer) {
  ONNXGATE_RETURN_IF_ERROR(ValidateSettings(settings));
  ONNXGATE_ASSIGN_OR_RETURN(
      BenchSubject s, Prepare(BenchTarget{&runtime, model_path, ep}, threads, settings, observer));
  ONNXGATE_ASSIGN_OR_RETURN(
      Repetitions r,
      TimeRepetitions(s, settings,
                      Timing{settings.repetitions, settings.min_time_s, settings.warmup_s},
                      observer));
  Append(r, &s.m);
  return std::move(s.m);
}

StatusOr<std::array<BenchMeasurement, 2>> MeasurePair(const BenchTarget& first,
                                                      const BenchTarget& second, int threads,
                                                      const BenchSettings& settings,
                                                      BenchObserver* observer) {
  ONNXGATE_RETURN_IF_ERROR(ValidateSettings(settings));
  std::array<BenchSubject, 2> s;
  ONNXGATE_ASSIGN_OR_RETURN(s[0], Prepare(first, threads, settings, observer));
  ONNXGATE_ASSIGN_OR_RETURN(s[1], Prepare(second, threads, settings, observer));
  // Each side warms up and sizes its repetitions by time once; that repetition is not kept.
  std::array<int64_t, 2> iterations{};
  for (size_t i = 0; i < 2; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(
        Repetitions sizing,
        TimeRepetitions(s[i], settings, Timing{1, settings.min_time_s, settings.warmup_s},
                        observer));
    iterations[i] = sizing.iterations.back();
  }
  // Then single repetitions take turns, first, second, second, first, ..., so that a drift of
  // the machine's speed during the pair falls on both sides alike.
  for (int r = 0; r < settings.repetitions; ++r) {
    const bool first_leads = r % 4 == 0 || r % 4 == 3;
    for (size_t turn = 0; turn < 2; ++turn) {
      const size_t i = first_leads ? turn : 1 - turn;
      ONNXGATE_ASSIGN_OR_RETURN(
          Repetitions one,
          TimeRepetitions(s[i], settings, Timing{1, 0.0, 0.0, iterations[i]}, observer));
      Append(one, &s[i].m);
    }
  }
  return std::array<BenchMeasurement, 2>{std::move(s[0].m), std::move(s[1].m)};
}

}  // namespace onnxgate
