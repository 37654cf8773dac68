// The judge stage of `bench`: each measurement as a latency record, judged against this
// machine's baseline for its EP (--compare) or against the reference runtime measured beside it
// (--against), under the thresholds; and, for `baseline update`, the baseline entries the
// measurements become.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/latency/baseline.h"
#include "harness/latency/bench_plan.h"
#include "harness/latency/bench_runner.h"
#include "harness/latency/thresholds.h"
#include "reports/records.h"

namespace onnxgate {

// A measurement as a latency record, not yet compared with anything (kNoBaseline).
LatencyRecord ToLatencyRecord(const BenchMeasurement& m);

struct BenchJudgement {
  std::vector<LatencyRecord> records;  // in measurement order
  int regressions = 0;
  // Records of a configuration never measured before (no-baseline, "new configuration: ...").
  int new_configurations = 0;
  int unreliable = 0;  // records whose verdict the noise makes unreliable (LatencyRecord::noise)
};

// The message prefix of a measurement whose configuration has no baseline entry.
inline constexpr char kNewConfigurationPrefix[] = "new configuration: ";
// The message prefix of a measurement compared with an entry recorded from another model file.
inline constexpr char kModelChangedPrefix[] = "model changed (hash ";

// Each measurement against its EP's baseline entry for the same configuration (model name,
// threads, shapes), under the model's threshold. A model whose file changed since the entry was
// recorded (another hash) is compared all the same, its message starting "model changed (hash
// 1a2b3c4d -> 5e6f7a8b): +15.6%; ". A configuration without an entry (or without a baseline file
// for its EP) is NO_BASELINE with a message starting kNewConfigurationPrefix, and counted in
// new_configurations. A compared record gets LatencyRecord::noise when its cv or its baseline
// entry's exceeds the threshold.
BenchJudgement JudgeAgainstBaselines(const std::vector<BenchMeasurement>& measured,
                                     const BenchBaselines& baselines,
                                     const LatencyThresholds& thresholds);

// Measurement i of the candidate against measurement i of the reference, taken beside it (the
// paired comparator); the records carry the candidate's label, and LatencyRecord::noise where
// either side's cv exceeds the threshold.
BenchJudgement JudgeAgainstReference(const std::vector<BenchMeasurement>& candidate,
                                     const std::vector<BenchMeasurement>& reference,
                                     const std::vector<std::string>& labels,
                                     const LatencyThresholds& thresholds);

// The baseline entries of the measurements per EP, recorded at `recorded` (ISO 8601).
std::map<std::string, std::vector<BaselineEntry>> ToBaselineEntries(
    const std::vector<BenchMeasurement>& measured, const std::string& recorded);

}  // namespace onnxgate
