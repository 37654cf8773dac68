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

// Timed runs measure wall time inside the runtime, where no extra work can be added.
Status ValidateTiming(const BenchSettings& s) {
  if (s.timing != BenchTiming::kRuntime) return OkStatus();
  if (s.clock == BenchClock::kCpu) {
    return InvalidArgument(
        "timing by the runtime measures wall time: --clock cpu needs --timing harness (or auto, "
        "which then times on the harness side)");
  }
  if (s.extra_work_percent > 0.0) {
    return InvalidArgument("extra work is added on the harness side: it needs --timing harness");
  }
  return OkStatus();
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
  return ValidateTiming(s);
}

}  // namespace

const char* BenchClockName(BenchClock clock) { return clock == BenchClock::kWall ? "wall" : "cpu"; }

const char* BenchTimingName(BenchTiming timing) {
  switch (timing) {
    case BenchTiming::kAuto: return "auto";
    case BenchTiming::kHarness: return "harness";
    case BenchTiming::kRuntime: return "runtime";
  }
  return "?";
}

StatusOr<BenchTiming> BenchTimingFromName(const std::string& name) {
  for (BenchTiming t : {BenchTiming::kAuto, BenchTiming::kHarness, BenchTiming::kRuntime}) {
    if (name == BenchTimingName(t)) return t;
  }
  return InvalidArgument("unknown timing '" + name + "': expected auto, harness or runtime");
}

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

// The repetitions of one timing call: as Google Benchmark's reporter kept them, or as the
// runtime's timed runs gave them.
struct Repetitions {
  std::vector<double> samples_ms, real_ms, cpu_ms;
  std::vector<int64_t> iterations;
  std::string timed_by = "harness";
  std::string clock = "wall";
};

// Google Benchmark times `timing.repetitions` repetitions of the subject's Run calls.
StatusOr<Repetitions> TimeByHarness(const BenchSubject& s, const BenchSettings& settings,
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
                     reporter.iterations(), "harness",          BenchClockName(settings.clock)};
}

// The most runs one timed-runs call asks for (a reply lists each run's time).
constexpr int64_t kMaxTimedRuns = int64_t{1} << 20;
// The runs of the first timed-runs call, which estimates one run's time.
constexpr int64_t kEstimateRuns = 3;

double MeanOf(const std::vector<double>& times) {
  double sum = 0.0;
  for (double t : times) sum += t;
  return times.empty() ? 0.0 : sum / static_cast<double>(times.size());
}

// The runs that take at least `ms` at `per_run_ms` each, within 1 .. kMaxTimedRuns.
int64_t RunsFilling(double ms, double per_run_ms) {
  const double runs = std::ceil(ms / std::max(per_run_ms, 1e-6));
  return static_cast<int64_t>(std::clamp(runs, 1.0, static_cast<double>(kMaxTimedRuns)));
}

// One timed-runs call of the subject: `runs` times in ms. Unimplemented keeps its code (the
// runtime does not offer timed runs).
StatusOr<std::vector<double>> CallTimedRuns(const BenchSubject& s, int64_t runs,
                                            BenchObserver* observer) {
  if (observer != nullptr) observer->OnTick();
  auto times = s.model->TimedRuns(s.feeds, runs);
  if (!times.ok()) return times.status().WithContext(s.what + ": timed runs");
  if (static_cast<int64_t>(times->size()) != runs) {
    return Internal(s.what + ": timed runs: the runtime timed " + std::to_string(times->size()) +
                    " runs of " + std::to_string(runs));
  }
  return times;
}

// Warms up with timed runs for `timing.warmup_s` (a first call of kEstimateRuns, then calls
// sized from the runs so far) and returns the runs that fill `timing.min_time_s`.
StatusOr<int64_t> SizeTimedRuns(const BenchSubject& s, const Timing& timing,
                                BenchObserver* observer) {
  const double warmup_ms = timing.warmup_s * 1000.0;
  double spent_ms = 0.0, per_run_ms = 0.0;
  int64_t runs = kEstimateRuns;
  do {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> times, CallTimedRuns(s, runs, observer));
    per_run_ms = MeanOf(times);
    spent_ms += per_run_ms * static_cast<double>(runs);
    runs = std::min(runs * 4, RunsFilling(warmup_ms - spent_ms, per_run_ms));
  } while (spent_ms < warmup_ms);
  return RunsFilling(timing.min_time_s * 1000.0, per_run_ms);
}

// The runtime times `timing.repetitions` repetitions, each one timed-runs call of the sized (or
// given) number of runs; a repetition's sample is the mean of its runs' times, as Google
// Benchmark's is on the harness side.
StatusOr<Repetitions> TimeByRuntime(const BenchSubject& s, const Timing& timing,
                                    BenchObserver* observer) {
  int64_t runs = timing.iterations;
  if (runs <= 0) {
    ONNXGATE_ASSIGN_OR_RETURN(runs, SizeTimedRuns(s, timing, observer));
  }
  Repetitions r;
  r.timed_by = "runtime";
  r.clock = BenchClockName(BenchClock::kWall);
  for (int i = 0; i < timing.repetitions; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> times, CallTimedRuns(s, runs, observer));
    const double mean = MeanOf(times);
    r.samples_ms.push_back(mean);
    r.real_ms.push_back(mean);
    r.cpu_ms.push_back(mean);  // the runtime reads wall time only
    r.iterations.push_back(runs);
  }
  return r;
}

// Times `timing.repetitions` repetitions of the subject's runs: by the runtime where the
// settings ask for it (--timing runtime) or allow it and the model offers timed runs (auto: wall
// clock, no extra work on this side), by the harness otherwise.
StatusOr<Repetitions> TimeRepetitions(const BenchSubject& s, const BenchSettings& settings,
                                      const Timing& timing, BenchObserver* observer) {
  const bool runtime_may_time = settings.timing == BenchTiming::kRuntime ||
                                (settings.timing == BenchTiming::kAuto &&
                                 settings.clock == BenchClock::kWall && s.m.extra_work_units == 0);
  if (runtime_may_time) {
    auto timed = TimeByRuntime(s, timing, observer);
    if (timed.ok() || timed.status().code() != StatusCode::kUnimplemented) return timed;
    if (settings.timing == BenchTiming::kRuntime) {
      return Unimplemented(timed.status().message() +
                           " (--timing runtime needs a runtime that offers them; --timing auto "
                           "times on the harness side where it does not)");
    }
  }
  return TimeByHarness(s, settings, timing, observer);
}

// Adds repetitions to a measurement's samples and summary.
void Append(const Repetitions& r, BenchMeasurement* m) {
  auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(m->samples_ms, r.samples_ms);
  append(m->real_ms, r.real_ms);
  append(m->cpu_ms, r.cpu_ms);
  append(m->iterations, r.iterations);
  m->iterations_per_repetition = m->iterations.back();
  m->timed_by = r.timed_by;
  m->clock = r.clock;
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
