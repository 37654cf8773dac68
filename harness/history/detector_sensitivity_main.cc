// onnxgate_detector_sensitivity: how the change-point detector (change_points.h) does on series
// simulated from real latency samples. Reads a file of samples, one number per line, a blank line
// ending one bench run's repetitions; each simulated commit's value is the median of
// `--per-commit` samples drawn with replacement from one run picked at random (so the spread
// between runs, a slow spell of the machine, is in the series too). Prints, for series of
// `--commits` commits:
//   - a +5% and a +2% step at a random commit (at least min_segment commits from either end),
//     `--trials` series each: in how many a change point was found within 5 commits of it;
//   - `--aa-series` series with no step: false change points per 100 commits;
//   - the time FindChangePoints takes over `--time-series` series of `--time-length` points.
// Usage: onnxgate_detector_sensitivity SAMPLES [--commits N] [--trials N] [--aa-series N]
//          [--per-commit N] [--time-series N] [--time-length N] [--seed N]
// Exit 2 naming the file and line on bad input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
  std::map<std::string, long> numbers = {
      {"--commits", 60},      {"--trials", 20},       {"--aa-series", 100}, {"--per-commit", 27},
      {"--time-series", 100}, {"--time-length", 100}, {"--seed", 1}};
  long Get(const std::string& name) const { return numbers.at(name); }
};

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "onnxgate_detector_sensitivity: %s\n", message.c_str());
  std::exit(2);
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto it = options.numbers.find(arg);
    if (it == options.numbers.end()) {
      if (!options.samples.empty() || arg.rfind("--", 0) == 0) Fail("unknown argument " + arg);
      options.samples = arg;
      continue;
    }
    if (i + 1 >= argc) Fail(arg + " needs a value");
    char* end = nullptr;
    it->second = std::strtol(argv[++i], &end, 10);
    if (*end != '\0' || it->second < 1) Fail(arg + " must be a positive integer, not " + argv[i]);
  }
  if (options.samples.empty()) Fail("usage: onnxgate_detector_sensitivity SAMPLES [options]");
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
  if (runs.back().empty()) runs.pop_back();
  if (runs.empty()) Fail(path + ": holds no samples");
  return runs;
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
  std::vector<double> drawn(static_cast<size_t>(options.Get("--per-commit")));
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
  const ChangePointSettings settings;
  const size_t commits = static_cast<size_t>(options.Get("--commits"));
  if (commits < 2 * settings.min_segment) Fail("--commits is shorter than two segments");
  std::uniform_int_distribution<size_t> where(settings.min_segment, commits - settings.min_segment);
  long found = 0, others = 0;
  for (long t = 0; t < options.Get("--trials"); ++t) {
    const size_t at = where(rng);
    bool near = false;
    for (const ChangePoint& cp :
         FindChangePoints(Simulate(runs, options, commits, at, factor, rng), settings)) {
      const bool hit = std::labs(static_cast<long>(cp.index) - static_cast<long>(at)) <= 5;
      near = near || hit;
      others += hit ? 0 : 1;
    }
    found += near ? 1 : 0;
  }
  std::printf(
      "%+.0f%% step: found within 5 commits in %ld of %ld trials (%ld other change points)\n",
      (factor - 1.0) * 100.0, found, options.Get("--trials"), others);
}

void ReportAA(const Runs& runs, const Options& options, std::mt19937_64& rng) {
  const size_t commits = static_cast<size_t>(options.Get("--commits"));
  long false_points = 0;
  for (long s = 0; s < options.Get("--aa-series"); ++s) {
    false_points += static_cast<long>(
        FindChangePoints(Simulate(runs, options, commits, commits, 1.0, rng), {}).size());
  }
  const double total = static_cast<double>(commits) * options.Get("--aa-series");
  std::printf("A/A: %ld false change points over %.0f commits (%.2f per 100 commits)\n",
              false_points, total, 100.0 * false_points / total);
}

void ReportTime(const Runs& runs, const Options& options, std::mt19937_64& rng) {
  const size_t length = static_cast<size_t>(options.Get("--time-length"));
  std::vector<std::vector<double>> series;
  for (long s = 0; s < options.Get("--time-series"); ++s) {
    series.push_back(Simulate(runs, options, length, length / 2, 1.05, rng));
  }
  size_t found = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const std::vector<double>& one : series) found += FindChangePoints(one, {}).size();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("time: FindChangePoints over %ld series of %zu points (%zu change points): %.3f s\n",
              options.Get("--time-series"), length, found, took.count());
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
  const Runs runs = ReadRuns(options.samples);
  std::mt19937_64 rng(static_cast<uint64_t>(options.Get("--seed")));
  ReportSamples(runs);
  ReportStep(runs, options, 1.05, rng);
  ReportStep(runs, options, 1.02, rng);
  ReportAA(runs, options, rng);
  ReportTime(runs, options, rng);
  return 0;
}
