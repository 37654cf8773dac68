// How the reports tell a run of users' models from a run of operator tests, and how they state
// each model output's margin to its tolerance or metric thresholds. Kept in one place so the
// console, the Markdown summary and the HTML page judge and word it the same way.
//
// The rule: a case is a model case when it uses more than one op type and is not an ONNX
// operator test expanded into its function body (a name with "_expanded"); a suite is a model
// suite when more than half of its cases in the run are model cases; a run is a model run when
// it has cases and every suite they belong to is a model suite.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/records.h"

namespace onnxgate {

bool IsModelCase(const CaseRecord& c);
// `suite` as CaseRecord::suite names it; false when the run has no case of it.
bool IsModelSuite(const RunRecord& run, const std::string& suite);
// Its human-facing reports open on the models and their margins; the op matrix comes last,
// folded, and the console leaves out the ONNX operator coverage.
bool IsModelRun(const RunRecord& run);

// One metric against its threshold: "cosine 0.9991 (>= 0.999, margin 0.0001)", or when it
// fails "top1 0.9 (>= 0.99, FAILS by 0.09)".
std::string DescribeMetric(const MetricRecord& metric);

// How much of its tolerance one output used, in words:
//   judged by metrics:   each DescribeMetric, "; " between them;
//   rtol/atol:           "uses 12% of atol, 40% of rtol" (each share is the smallest passing
//                        value at the other tolerance over the one used, as a factor from ten
//                        times on: "2.5e+06x atol"; a zero tolerance is left out); when
//                        either tolerance alone would pass, "uses 3% of atol or 20% of rtol
//                        alone" (max abs err over atol, max rel err over rtol); "exact" when no
//                        element differs, "no tolerance passes" when none would;
//   a structural error:  the error ("shape mismatch").
std::string DescribeOutputMargin(const OutputComparison& output);

// The same margin as a number, the share of its tolerance the output used (1 = at the limit,
// above 1 failed): the smallest passing atol and rtol over the ones given, the larger of the
// two; when either tolerance alone would pass, the smaller of max abs error over atol and max
// rel error over rtol; a zero tolerance left out. Absent for a structural error, an output
// judged by metrics, no tolerance given, or a share that is not finite.
std::optional<double> OutputToleranceShare(const OutputComparison& output);

// One line per output: `y set 0: uses 12% of atol`.
std::vector<std::string> DescribeOutputMargins(const CaseRecord& c);

// "node relu_3 (Relu) computing y3, set 0: max abs err 0.5, max rel err 1".
std::string DescribeDivergence(const DivergenceRecord& divergence);

}  // namespace onnxgate
