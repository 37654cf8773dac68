// Latency records from measurements, judged against baselines or a reference runtime.
#include "harness/latency/bench_judge.h"

#include <utility>

#include "harness/latency/comparator.h"

namespace onnxgate {

namespace {

void ApplyComparison(const LatencyComparison& c, LatencyRecord* r) {
  r->verdict = c.verdict;
  r->baseline_median_ms = c.baseline_median_ms;
  r->change_ratio = c.change_ratio;
  r->p_value = c.p_value;
  r->threshold = c.threshold;
  r->message = c.message;
}

// The comparison of one measurement with its EP's baseline.
LatencyComparison CompareWithBaseline(const BenchMeasurement& m, const BenchBaselines& baselines,
                                      const LatencyThresholds& thresholds) {
  const double threshold = thresholds.For(m.model, m.ep);
  const auto file_it = baselines.files.find(m.ep);
  const auto path_it = baselines.paths.find(m.ep);
  const std::string path = path_it == baselines.paths.end() ? std::string() : path_it->second;
  if (file_it == baselines.files.end() || !file_it->second) {
    return NoBaseline("no baseline for this machine: " + path +
                          " does not exist (record one with `onnxgate baseline update`)",
                      threshold, thresholds.alpha);
  }
  const BaselineEntry* entry = file_it->second->Find(m.model, m.threads);
  if (entry == nullptr) {
    return NoBaseline("the baseline " + path + " has no entry for " + m.model + " at " +
                          std::to_string(m.threads) + " thread(s)",
                      threshold, thresholds.alpha);
  }
  if (!entry->model_sha256.empty() && entry->model_sha256 != m.model_sha256) {
    return NoBaseline("the model changed since the baseline was recorded (sha256 " +
                          entry->model_sha256.substr(0, 12) + " then, " +
                          m.model_sha256.substr(0, 12) + " now); update the baseline",
                      threshold, thresholds.alpha);
  }
  return CompareLatency(m.samples_ms, entry->samples_ms, threshold, thresholds.alpha);
}

}  // namespace

LatencyRecord ToLatencyRecord(const BenchMeasurement& m) {
  LatencyRecord r;
  r.model = m.model;
  r.ep = m.ep;
  r.threads = m.threads;
  r.repetitions = static_cast<int64_t>(m.samples_ms.size());
  r.median_ms = m.summary.median;
  r.min_ms = m.summary.min;
  r.p90_ms = m.summary.p90;
  r.p99_ms = m.summary.p99;
  r.mean_ms = m.summary.mean;
  r.cv = m.summary.cv;
  r.load_ms = m.load_ms;
  r.first_run_ms = m.first_run_ms;
  r.timed_by = m.timed_by;
  r.clock = m.clock;
  return r;
}

BenchJudgement JudgeAgainstBaselines(const std::vector<BenchMeasurement>& measured,
                                     const BenchBaselines& baselines,
                                     const LatencyThresholds& thresholds) {
  BenchJudgement judgement;
  for (const BenchMeasurement& m : measured) {
    LatencyRecord r = ToLatencyRecord(m);
    const LatencyComparison c = CompareWithBaseline(m, baselines, thresholds);
    ApplyComparison(c, &r);
    if (c.verdict == LatencyVerdict::kRegression) ++judgement.regressions;
    judgement.records.push_back(std::move(r));
  }
  return judgement;
}

BenchJudgement JudgeAgainstReference(const std::vector<BenchMeasurement>& candidate,
                                     const std::vector<BenchMeasurement>& reference,
                                     const std::vector<std::string>& labels,
                                     const LatencyThresholds& thresholds) {
  BenchJudgement judgement;
  for (size_t i = 0; i < candidate.size() && i < reference.size(); ++i) {
    LatencyRecord r = ToLatencyRecord(candidate[i]);
    r.runtime = labels[0];
    const std::string against = TargetName(labels[1], reference[i].ep);
    r.against = against;
    const LatencyComparison c = ComparePaired(candidate[i].samples_ms, reference[i].samples_ms,
                                              thresholds.For(candidate[i].model, candidate[i].ep),
                                              thresholds.alpha, against);
    ApplyComparison(c, &r);
    if (c.verdict == LatencyVerdict::kRegression) ++judgement.regressions;
    judgement.records.push_back(std::move(r));
  }
  return judgement;
}

std::map<std::string, std::vector<BaselineEntry>> ToBaselineEntries(
    const std::vector<BenchMeasurement>& measured, const std::string& recorded) {
  std::map<std::string, std::vector<BaselineEntry>> entries;
  for (const BenchMeasurement& m : measured) {
    BaselineEntry e;
    e.model = m.model;
    e.threads = m.threads;
    e.model_sha256 = m.model_sha256;
    e.iterations_per_repetition = m.iterations_per_repetition;
    e.samples_ms = m.samples_ms;
    e.median_ms = m.summary.median;
    e.min_ms = m.summary.min;
    e.p90_ms = m.summary.p90;
    e.p99_ms = m.summary.p99;
    e.mean_ms = m.summary.mean;
    e.cv = m.summary.cv;
    e.load_ms = m.load_ms;
    e.first_run_ms = m.first_run_ms;
    e.recorded = recorded;
    entries[m.ep].push_back(std::move(e));
  }
  return entries;
}

}  // namespace onnxgate
