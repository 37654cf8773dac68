// Latency records from measurements, judged against baselines or a reference runtime.
#include "harness/latency/bench_judge.h"

#include <cstdio>
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

// The baseline entry a measurement is compared with, or why it has none: its configuration was
// never measured on this machine.
struct BaselineLookup {
  const BaselineEntry* entry = nullptr;
  std::string why_new;  // when entry is null
};

// "1 thread(s); 2 thread(s), shapes batch=4": the configurations the file holds for a model.
std::string ListConfigurations(const std::vector<const BaselineEntry*>& entries) {
  std::string list;
  for (const BaselineEntry* e : entries) {
    if (!list.empty()) list += "; ";
    list += DescribeConfiguration(e->threads, e->shapes);
  }
  return list;
}

BaselineLookup LookUpBaseline(const BenchMeasurement& m, const BenchBaselines& baselines) {
  BaselineLookup found;
  const auto file_it = baselines.files.find(m.ep);
  const auto path_it = baselines.paths.find(m.ep);
  const std::string path = path_it == baselines.paths.end() ? std::string() : path_it->second;
  if (file_it == baselines.files.end() || !file_it->second) {
    found.why_new = std::string(kNewConfigurationPrefix) + "no baseline for this machine: " + path +
                    " does not exist (record one with `onnxgate baseline update`)";
    return found;
  }
  const BaselineFile& file = *file_it->second;
  found.entry = file.Find(m.model, m.threads, m.shapes);
  if (found.entry != nullptr) return found;
  found.why_new = std::string(kNewConfigurationPrefix) + "the baseline " + path +
                  " has no entry for " + m.model + " at " +
                  DescribeConfiguration(m.threads, m.shapes);
  const std::vector<const BaselineEntry*> others = file.EntriesOf(m.model);
  if (!others.empty()) found.why_new += " (it holds " + ListConfigurations(others) + ")";
  return found;
}

// The first 8 hex digits: enough to tell two model files apart in a message.
std::string ShortHash(const std::string& sha256) {
  return sha256.empty() ? std::string("unknown") : sha256.substr(0, 8);
}

std::string SignedPercent(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", ratio * 100.0);
  return buf;
}

// A model file that is not the one the entry measured, under the same name and configuration:
// a re-export, new weights, another quantization. It is compared all the same, and says so.
void SayModelChanged(const BaselineEntry& entry, const BenchMeasurement& m, LatencyComparison* c) {
  std::string prefix = kModelChangedPrefix + ShortHash(entry.model_sha256) + " -> " +
                       ShortHash(m.model_sha256) + ")";
  if (c->change_ratio) prefix += ": " + SignedPercent(*c->change_ratio);
  c->message = prefix + "; " + c->message;
}

// The comparison of one measurement with its EP's baseline; `why_new` is set (and the verdict
// NO_BASELINE) for a configuration never measured.
LatencyComparison CompareWithBaseline(const BenchMeasurement& m, const BaselineLookup& lookup,
                                      const LatencyThresholds& thresholds) {
  const double threshold = thresholds.For(m.model, m.ep);
  if (lookup.entry == nullptr) return NoBaseline(lookup.why_new, threshold, thresholds.alpha);
  const BaselineEntry& entry = *lookup.entry;
  LatencyComparison c = CompareLatency(m.samples_ms, entry.samples_ms, threshold, thresholds.alpha);
  if (!entry.model_sha256.empty() && entry.model_sha256 != m.model_sha256) {
    SayModelChanged(entry, m, &c);
  }
  return c;
}

void Count(const LatencyRecord& r, BenchJudgement* judgement) {
  if (r.verdict == LatencyVerdict::kRegression) ++judgement->regressions;
  if (!r.noise.empty()) ++judgement->unreliable;
}

}  // namespace

LatencyRecord ToLatencyRecord(const BenchMeasurement& m) {
  LatencyRecord r;
  r.model = m.model;
  r.ep = m.ep;
  r.threads = m.threads;
  r.shapes = m.shapes;
  r.fallback = m.fallback;
  r.model_sha256 = m.model_sha256;
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
    const BaselineLookup lookup = LookUpBaseline(m, baselines);
    const LatencyComparison c = CompareWithBaseline(m, lookup, thresholds);
    ApplyComparison(c, &r);
    if (lookup.entry != nullptr) {
      r.noise = NoiseReason(m.summary.cv, Summarize(lookup.entry->samples_ms).cv, c.threshold);
    } else {
      ++judgement.new_configurations;
    }
    Count(r, &judgement);
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
    r.noise = NoiseReason(candidate[i].summary.cv, reference[i].summary.cv, c.threshold, against);
    Count(r, &judgement);
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
    e.shapes = m.shapes;
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
