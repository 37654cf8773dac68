// Which cases changed verdict between two reports (`onnxgate diff-reports`, `gate
// --against-report`): a release's report against a candidate's, or any two runs of the same
// suites. Cases are matched by suite, name and target (EP, or runtime/EP side by side) and
// compared by their raw outcome (before expectations), so that an expectations file changed
// between the two runs does not hide or invent a change.
#pragma once

#include <string>
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

struct ReportDiff {
  std::vector<CaseChange> changes;       // in the later report's case order
  std::vector<std::string> only_before;  // "suite/name [target]": in the earlier report alone
  std::vector<std::string> only_after;   // in the later report alone
  size_t Count(VerdictChange change) const;
};

// What changed from `before` to `after`.
ReportDiff DiffReports(const RunRecord& before, const RunRecord& after);

// For people: the counts, then one line per changed case grouped by op version, worse first, at
// most `max_lines` case lines ("... and N more").
std::string RenderReportDiffText(const ReportDiff& diff, size_t max_lines = 200);
// The same as a Markdown section, and as a JSON object:
// {"worse": N, "better": N, "changed": N, "cases": [{"suite", "case", "target", "before", "after",
//  "change", "op_versions", "message"}], "only_before": [...], "only_after": [...]}.
std::string RenderReportDiffMarkdown(const ReportDiff& diff, size_t max_lines = 200);
std::string RenderReportDiffJson(const ReportDiff& diff);

}  // namespace onnxgate
