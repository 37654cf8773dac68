// Which cases changed verdict between two reports (`onnxgate diff-reports`, `gate
// --against-report`): a release's report against a candidate's, or any two runs of the same
// suites. Cases are matched by suite, name and target (EP, or runtime/EP side by side); when each
// report has a single target, by suite and name alone, so a release on one EP can be compared
// with a candidate on another. They are compared by their raw outcome (before expectations), so
// that an expectations file changed between the two runs does not hide or invent a change.
// A case that passes in both reports but whose error grew (the margin to its golden got larger,
// MarginGrew) is listed too; it is a warning, never a verdict change.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reports/records.h"

namespace onnxgate {

enum class VerdictChange {
  kWorse,   // passed before and does not now, or a new CRASH or TIMEOUT
  kBetter,  // passes now and did not before
  kOther,   // another change between two non-passing outcomes (FAIL -> UNRESOLVED, ...)
};
// "worse", "better", "changed".
const char* VerdictChangeName(VerdictChange change);

struct CaseChange {
  std::string suite;
  std::string name;
  std::string target;
  Verdict before = Verdict::kPass;  // raw outcomes
  Verdict after = Verdict::kPass;
  VerdictChange change = VerdictChange::kOther;
  std::string op_version;  // "Relu v14, ..." of the case in the later report
  std::string message;     // the later report's message
};

// The error of an output counts as grown when its max_abs_error is more than kMarginGrowthFactor
// times the earlier report's and the output now uses at least kMarginToleranceShare of its
// tolerance (OutputToleranceUsed): below that share, a larger error is rounding noise that no
// tolerance would notice (most float outputs differ from their goldens by an ULP or two).
inline constexpr double kMarginGrowthFactor = 2.0;
inline constexpr double kMarginToleranceShare = 0.1;

// How much of its tolerance a passing output uses, 0..1: the larger of min_passing_atol / atol
// and min_passing_rtol / rtol (a knob that is 0 counts as unused); 0 for an exact match.
double OutputToleranceUsed(const OutputComparison& output);

// A case that passes in both reports (raw outcome PASS) with an output whose error grew
// (kMarginGrowthFactor, kMarginToleranceShare); the output whose error grew the most.
struct MarginGrowth {
  std::string suite;
  std::string name;
  std::string target;
  std::string op_version;       // as CaseChange
  std::string output;           // the output's name
  int64_t set_index = 0;        // its golden set
  double error_before = 0.0;    // max_abs_error in the earlier report
  double error_after = 0.0;     // and in the later one
  double tolerance_used = 0.0;  // OutputToleranceUsed in the later report
};

struct ReportDiff {
  std::vector<CaseChange> changes;        // in the later report's case order
  std::vector<MarginGrowth> margin_grew;  // in the later report's case order
  std::vector<std::string> only_before;   // "suite/name [target]": in the earlier report alone
  std::vector<std::string> only_after;    // in the later report alone
  // When each report has one target and they differ, the two that were matched: "ref" and
  // "test-broken-relu"; empty when cases were matched by target.
  std::string target_before, target_after;
  size_t Count(VerdictChange change) const;
};

// What changed from `before` to `after`.
ReportDiff DiffReports(const RunRecord& before, const RunRecord& after);

// Changes grouped by kind (worse first, then better, then the others) and op version; the cases
// whose error grew grouped by op version. Both point into `diff`.
std::map<std::pair<VerdictChange, std::string>, std::vector<const CaseChange*>> GroupChanges(
    const ReportDiff& diff);
std::map<std::string, std::vector<const MarginGrowth*>> GroupMarginGrowth(const ReportDiff& diff);
// "y (set 0): max abs error 1e-06 -> 5e-06 (x5), 40.0% of its tolerance".
std::string DescribeMarginGrowth(const MarginGrowth& growth);

// The counts in one line: "1 worse, 2 better, 0 changed otherwise, 1 with a larger error (still
// passing)", then the cases found in one report alone and the targets matched, when there are.
std::string ReportDiffSummary(const ReportDiff& diff);

// For people: the summary, then one line per changed case grouped by op version, worse first,
// then the cases whose error grew, at most `max_lines` case lines ("... and N more").
std::string RenderReportDiffText(const ReportDiff& diff, size_t max_lines = 200);
// The same as a Markdown section, and as a JSON object:
// {"worse": N, "better": N, "changed": N, "margin_grew": N,
//  "cases": [{"suite", "case", "target", "before", "after", "change", "op_versions", "message"}],
//  "margin_grew_cases": [{"suite", "case", "target", "op_versions", "output", "set",
//  "max_abs_error_before", "max_abs_error_after", "tolerance_used"}],
//  "only_before": [...], "only_after": [...], "targets_matched": {"before", "after"} (when
// ReportDiff names them)}.
std::string RenderReportDiffMarkdown(const ReportDiff& diff, size_t max_lines = 200);
std::string RenderReportDiffJson(const ReportDiff& diff);

// One self-contained HTML page (the run report's stylesheet, no script, no external resource):
// the summary, then the worse, better, otherwise changed and larger-error cases, each grouped by
// op version, and the cases found in one report alone. `before_name` and `after_name` are shown
// as the two reports' names. Every text is escaped; the page is well-formed XML.
std::string RenderReportDiffHtml(const ReportDiff& diff, const std::string& before_name,
                                 const std::string& after_name, size_t max_rows = 2000);

}  // namespace onnxgate
