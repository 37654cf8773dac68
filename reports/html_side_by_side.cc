// The HTML page's side-by-side section: counts per runtime/EP, the cases and the op versions
// where they disagree, a column per target.
#include <algorithm>

#include "reports/format.h"
#include "reports/html_internal.h"
#include "reports/matrix_summary.h"
#include "reports/side_by_side_cases.h"

namespace onnxgate {
namespace html_internal {

namespace {

// The cases whose outcome differs between the targets, a verdict badge per target.
void WriteDifferingCases(std::ostringstream& out, const RunRecord& run,
                         const std::vector<TargetCounts>& per_target, const HtmlOptions& options) {
  std::vector<std::string> targets;
  for (const TargetCounts& row : per_target) targets.push_back(row.target);
  const std::vector<CaseAcrossTargets> rows = CasesDifferingAcrossTargets(run, targets);
  out << "<h3>Cases where the results differ (" << rows.size() << ")</h3>\n";
  if (rows.empty()) {
    out << "<p>Every case has the same outcome on each of them.</p>\n";
    return;
  }
  out << "<table class=\"data\" id=\"side-by-side-cases\"><thead><tr><th>Case</th>";
  for (const std::string& target : targets) out << "<th>" << Text(target) << "</th>";
  out << "</tr></thead><tbody>\n";
  const size_t shown = std::min(rows.size(), options.max_failing_cases);
  for (size_t i = 0; i < shown; ++i) {
    out << "<tr><td><code>" << Text(rows[i].suite + "/" + rows[i].name) << "</code></td>";
    for (const CaseRecord* r : rows[i].records) {
      if (r == nullptr) {
        out << "<td class=\"sub\">no case</td>";
        continue;
      }
      out << "<td><span class=\"badge v-" << VerdictToString(r->verdict) << "\">"
          << VerdictToString(r->verdict) << "</span></td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
  if (rows.size() > shown) {
    out << "<p>... and " << rows.size() - shown << " more (see the JSON report).</p>\n";
  }
}

}  // namespace

void WriteSideBySideSection(std::ostringstream& out, const RunRecord& run,
                            const HtmlOptions& options) {
  const std::vector<TargetCounts> per_target = CountsPerTarget(run);
  if (per_target.size() < 2) return;
  const VerdictCounts totals = CountVerdicts(run.cases);
  out << "<h2 id=\"side-by-side\">Side by side</h2>\n<table class=\"data\" "
         "id=\"side-by-side-totals\"><thead><tr><th>Runs on</th><th>Cases</th>";
  for (Verdict v : kAllVerdicts) {
    if (totals[v] != 0) out << "<th>" << VerdictToString(v) << "</th>";
  }
  out << "</tr></thead><tbody>\n";
  for (const TargetCounts& row : per_target) {
    out << "<tr><td><b>" << Text(row.target) << "</b></td><td class=\"num\">" << row.counts.total()
        << "</td>";
    for (Verdict v : kAllVerdicts) {
      if (totals[v] != 0) out << "<td class=\"num\">" << row.counts[v] << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
  WriteDifferingCases(out, run, per_target, options);

  std::vector<std::string> targets;
  for (const TargetCounts& row : per_target) targets.push_back(row.target);
  const std::vector<TargetDifference> rows = DifferingOpVersions(run, targets);
  out << "<h3>Op versions where the results differ (" << rows.size() << ")</h3>\n";
  if (rows.empty()) {
    out << "<p>Every op version has the same class of result on each of them.</p>\n";
    return;
  }
  out << "<table class=\"data grid\" id=\"side-by-side-differences\"><thead><tr><th>Op "
         "version</th>";
  for (const std::string& target : targets) out << "<th>" << Text(target) << "</th>";
  out << "</tr></thead><tbody>\n";
  const size_t shown = std::min(rows.size(), options.max_failing_cases);
  for (size_t i = 0; i < shown; ++i) {
    out << "<tr><th class=\"op\">" << Text(rows[i].op) << " v" << rows[i].since_version << "</th>";
    for (const MatrixCell* cell : rows[i].cells) {
      if (cell == nullptr) {
        out << "<td class=\"k empty\">no case</td>";
        continue;
      }
      out << "<td class=\"k " << CellClassName(ClassifyCounts(cell->counts)) << "\">"
          << Text(FormatVerdictCounts(cell->counts)) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
  if (rows.size() > shown) {
    out << "<p>... and " << rows.size() - shown << " more (see the JSON report).</p>\n";
  }
}

}  // namespace html_internal
}  // namespace onnxgate
