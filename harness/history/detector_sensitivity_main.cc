// onnxgate_detector_sensitivity: how the change-point detector (change_points.h) does on series
// simulated from real latency samples. Reads a file of samples, one number per line, a blank line
// ending one bench run's repetitions; each simulated commit's value is the median of
// `--per-commit` samples drawn with replacement (a bootstrap) from
//   --draw pool  all samples pooled (the default), or
//   --draw run   one run picked at random, so the spread between runs (a slow spell of the
//                machine lasting a whole bench) is in the series too.
// Prints, for series of `--commits` commits:
//   - a +5% and a +2% step at a random commit (at least min_segment commits from either end),
//     `--trials` series each: in how many a change point was found within 5 commits of it;
//   - `--aa-series` series with no step: false change points per 100 commits;
//   - the time FindChangePoints takes over `--time-series` series of `--time-length` points.
// The detector runs with the header's defaults unless --alpha, --permutations, --min-segment or
// --min-change (min_relative_change) say otherwise.
// Usage: onnxgate_detector_sensitivity SAMPLES [--commits N] [--trials N] [--aa-series N]
//          [--per-commit N] [--time-series N] [--time-length N] [--seed N] [--draw pool|run]
//          [--alpha P] [--permutations N] [--min-segment N] [--min-change R]
// Exit 2 naming the file and line on bad input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness/history/change_points.h"

namespace onnxgate {
namespace {

using Runs = std::vector<std::vector<double>>;

struct Options {
  std::string samples;
  bool draw_from_one_run = false;
  // Counts and the detector's settings (change_points.h), all positive numbers.
  std::map<std::string, double> numbers = {
      {"--commits", 60},
      {"--trials", 20},
      {"--aa-series", 100},
      {"--per-commit", 27},
      {"--time-series", 100},
      {"--time-length", 100},
      {"--seed", 1},
      {"--alpha", ChangePointSettings().alpha},
      {"--permutations", ChangePointSettings().permutations},
      {"--min-segment", static_cast<double>(ChangePointSettings().min_segment)},
      {"--min-change", ChangePointSettings().min_relative_change}};
  size_t Count(const std::string& name) const { return static_cast<size_t>(numbers.at(name)); }
  ChangePointSettings Detector() const {
    ChangePointSettings settings;
    settings.alpha = numbers.at("--alpha");
    settings.permutations = static_cast<int>(Count("--permutations"));
    settings.min_segment = Count("--min-segment");
    settings.min_relative_change = numbers.at("--min-change");
    return settings;
  }
};

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "onnxgate_detector_sensitivity: %s\n", message.c_str());
  std::exit(2);
}

void ParseNumber(const std::string& name, const char* text, double* value) {
  const bool fraction = name == "--alpha" || name == "--min-change";
  char* end = nullptr;
  *value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(*value > 0.0) || *value > 1e9 ||
      (!fraction && *value != std::floor(*value))) {
    Fail(name + " must be a positive " + (fraction ? "number" : "integer") + ", not '" + text +
         "'");
  }
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--draw") {
      const std::string how = i + 1 < argc ? argv[++i] : "";
      if (how != "pool" && how != "run") Fail("--draw takes pool or run, not '" + how + "'");
      options.draw_from_one_run = how == "run";
      continue;
    }
    auto it = options.numbers.find(arg);
    if (it == options.numbers.end()) {
      if (!options.samples.empty() || arg.rfind("--", 0) == 0) Fail("unknown argument " + arg);
      options.samples = arg;
      continue;
    }
    if (i + 1 >= argc) Fail(arg + " needs a value");
    ParseNumber(arg, argv[++i], &it->second);
  }
  if (options.samples.empty()) Fail("usage: onnxgate_detector_sensitivity SAMPLES [options]");
  const ChangePointSettings detector = options.Detector();
  if (options.Count("--commits") < 2 * detector.min_segment) {
    Fail("--commits must hold two segments of --min-segment commits");
  }
  return options;
}

Runs ReadRuns(const std::string& path) {
  std::ifstream in(path);
  if (!in) Fail(path + ": cannot be read");
  Runs runs(1);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    char* end = nullptr;
    const double value = std::strtod(line.c_str(), &end);
    if (end == line.c_str() || std::string(end).find_first_not_of(" \t\r") != std::string::npos ||
        !std::isfinite(value) || value <= 0.0) {
      Fail(path + ":" + std::to_string(number) + ": not a positive number: " + line);
    }
    runs.back().push_back(value);
  }
  if (in.bad()) Fail(path + ": cannot be read");
  if (runs.back().empty()) runs.pop_back();
  if (runs.empty()) Fail(path + ": holds no samples");
  return runs;
}

// Every run's samples as one run.
Runs Pooled(const Runs& runs) {
  std::vector<double> all;
  for (const std::vector<double>& run : runs) all.insert(all.end(), run.begin(), run.end());
  return {all};
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// One simulated series; the points from `step_at` on are multiplied by `factor`.
std::vector<double> Simulate(const Runs& runs, const Options& options, size_t commits,
                             size_t step_at, double factor, std::mt19937_64& rng) {
  std::vector<double> series(commits);
  std::vector<double> drawn(options.Count("--per-commit"));
  for (size_t c = 0; c < commits; ++c) {
    const std::vector<double>& run =
        runs[std::uniform_int_distribution<size_t>(0, runs.size() - 1)(rng)];
    std::uniform_int_distribution<size_t> pick(0, run.size() - 1);
    for (double& d : drawn) d = run[pick(rng)];
    series[c] = Median(drawn) * (c >= step_at ? factor : 1.0);
  }
  return series;
}

void ReportStep(const Runs& runs, const Options& options, double factor, std::mt19937_64& rng) {
  const ChangePointSettings settings = options.Detector();
  const size_t commits = options.Count("--commits");
  std::uniform_int_distribution<size_t> where(settings.min_segment, commits - settings.min_segment);
  size_t found = 0, others = 0;
  for (size_t t = 0; t < options.Count("--trials"); ++t) {
    const size_t at = where(rng);
    const std::vector<double> series = Simulate(runs, options, commits, at, factor, rng);
    bool near = false;
    for (const ChangePoint& cp : FindChangePoints(series, settings)) {
      const bool hit = std::labs(static_cast<long>(cp.index) - static_cast<long>(at)) <= 5;
      near = near || hit;
      others += hit ? 0 : 1;
    }
    found += near ? 1 : 0;
  }
  std::printf(
      "%+.0f%% step: found within 5 commits in %zu of %zu trials (%zu other change points)\n",
      (factor - 1.0) * 100.0, found, options.Count("--trials"), others);
}

void ReportAA(const Runs& runs, const Options& options, std::mt19937_64& rng) {
  const size_t commits = options.Count("--commits");
  size_t false_points = 0;
  double spread = 0.0;  // the mean over the series of their cv
  for (size_t s = 0; s < options.Count("--aa-series"); ++s) {
    const std::vector<double> series = Simulate(runs, options, commits, commits, 1.0, rng);
    false_points += FindChangePoints(series, options.Detector()).size();
    double mean = 0.0, square = 0.0;
    for (double v : series) mean += v / commits;
    for (double v : series) square += (v - mean) * (v - mean) / (commits - 1);
    spread += std::sqrt(square) / mean / options.Count("--aa-series");
  }
  const double total = static_cast<double>(commits * options.Count("--aa-series"));
  std::printf(
      "A/A: %zu false change points over %.0f commits (%.2f per 100 commits); "
      "cv of a series %.1f%%\n",
      false_points, total, 100.0 * false_points / total, 100.0 * spread);
}

void ReportTime(const Runs& runs, const Options& options, std::mt19937_64& rng) {
  const size_t length = options.Count("--time-length");
  std::vector<std::vector<double>> series;
  for (size_t s = 0; s < options.Count("--time-series"); ++s) {
    series.push_back(Simulate(runs, options, length, length / 2, 1.05, rng));
  }
  size_t found = 0;
  const ChangePointSettings settings = options.Detector();
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  for (const std::vector<double>& one : series) found += FindChangePoints(one, settings).size();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf(
      "time: FindChangePoints over %zu series of %zu points with a +5%% step (%zu change "
      "points): %.3f s wall, %.3f s CPU\n",
      series.size(), length, found, took.count(), cpu);
}

void ReportSamples(const Runs& runs) {
  std::vector<double> medians;
  size_t count = 0;
  for (const std::vector<double>& run : runs) {
    medians.push_back(Median(run));
    count += run.size();
  }
  const double centre = Median(medians);
  const auto [low, high] = std::minmax_element(medians.begin(), medians.end());
  std::printf("samples: %zu in %zu runs; run medians %.4g (min %+.1f%%, max %+.1f%%)\n", count,
              runs.size(), centre, (*low / centre - 1) * 100, (*high / centre - 1) * 100);
}

}  // namespace
}  // namespace onnxgate

int main(int argc, char** argv) {
  using namespace onnxgate;
  const Options options = ParseOptions(argc, argv);
  Runs runs = ReadRuns(options.samples);
  std::mt19937_64 rng(options.Count("--seed"));
  ReportSamples(runs);
  std::printf("each commit: the median of %zu samples drawn from %s\n",
              options.Count("--per-commit"),
              options.draw_from_one_run ? "one run" : "all runs pooled");
  if (!options.draw_from_one_run) runs = Pooled(runs);
  const ChangePointSettings detector = options.Detector();
  std::printf("detector: alpha %g, %d permutations, min_segment %zu, min_relative_change %g\n",
              detector.alpha, detector.permutations, detector.min_segment,
              detector.min_relative_change);
  ReportStep(runs, options, 1.05, rng);
  ReportStep(runs, options, 1.02, rng);
  ReportAA(runs, options, rng);
  ReportTime(runs, options, rng);
  return 0;
}
