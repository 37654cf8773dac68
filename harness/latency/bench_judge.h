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
};

// Each measurement against its EP's baseline entry for the same model and thread count:
// NO_BASELINE (saying why) where this machine has no baseline file, the file has no such entry,
// or the model changed since it was recorded; otherwise the comparator's verdict under the
// model's threshold.
BenchJudgement JudgeAgainstBaselines(const std::vector<BenchMeasurement>& measured,
                                     const BenchBaselines& baselines,
                                     const LatencyThresholds& thresholds);

// Measurement i of the candidate against measurement i of the reference, taken beside it (the
// paired comparator); the records carry the candidate's label.
BenchJudgement JudgeAgainstReference(const std::vector<BenchMeasurement>& candidate,
                                     const std::vector<BenchMeasurement>& reference,
                                     const std::vector<std::string>& labels,
                                     const LatencyThresholds& thresholds);

// The baseline entries of the measurements per EP, recorded at `recorded` (ISO 8601).
std::map<std::string, std::vector<BaselineEntry>> ToBaselineEntries(
    const std::vector<BenchMeasurement>& measured, const std::string& recorded);

}  // namespace onnxgate
