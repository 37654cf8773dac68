// A suite case's metric thresholds (suite.json "metrics") applied to one output's record: where a
// threshold applies, the output is judged by the thresholds instead of rtol/atol, and the record
// carries each metric's value, threshold and margin for the reports.
#pragma once

#include <string>

#include "harness/metrics.h"
#include "reports/records.h"
#include "runtime/base/value.h"

namespace onnxgate {

// No-op when `thresholds` is empty or none applies to the output; else sets rec->metrics and
// rec->passed, and `summary` to the verdicts ("cosine 0.9991 (>= 0.999, margin 0.0001)").
void JudgeOutputByMetrics(const Value& actual, const Value& expected,
                          const MetricThresholds& thresholds, OutputComparison* rec,
                          std::string* summary);

}  // namespace onnxgate
