// RenderReportDiffHtml: a ReportDiff as one self-contained page in the run report's style.
#include <sstream>
#include <string_view>

#include "harness/report_diff.h"
#include "reports/format.h"
#include "reports/html_writer.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

std::string Text(std::string_view text) { return XmlEscapeText(text); }

// The run report's stylesheet, taken from the page it renders for an empty run, so that every
// onnxgate page looks alike and the stylesheet has one home (reports/html_writer.cc).
const std::string& RunReportStyle() {
  static const std::string style = [] {
    const std::string page = RenderHtml(RunRecord{});
    const size_t begin = page.find("<style>");
    const size_t end = page.find("</style>");
    if (begin == std::string::npos || end == std::string::npos || end < begin) return std::string();
    return page.substr(begin + 7, end - begin - 7);
  }();
  return style;
}

std::string Badge(Verdict v) {
  return std::string("<span class=\"badge v-") + VerdictToString(v) + "\">" + VerdictToString(v) +
         "</span>";
}

std::string CaseName(const std::string& suite, const std::string& name) {
  return "<code>" + Text(suite + "/" + name) + "</code>";
}

// Rows are counted across the page; past `max_rows` they are only counted.
struct RowBudget {
  size_t max_rows;
  size_t rows = 0;
  bool Take() { return rows++ < max_rows; }
};

void WriteChangeSection(std::ostringstream& out, const ReportDiff& diff, VerdictChange kind,
                        const char* id, const char* title, RowBudget& budget) {
  out << "<h2 id=\"" << id << "\">" << title << " (" << diff.Count(kind) << ")</h2>\n";
  if (diff.Count(kind) == 0) out << "<p class=\"sub\">None.</p>\n";
  for (const auto& [group, cases] : GroupChanges(diff)) {
    if (group.first != kind) continue;
    out << "<h3>" << Text(group.second) << " (" << cases.size() << ")</h3>\n"
        << "<table class=\"data\"><thead><tr><th>Case</th><th>Runs on</th><th>Before</th>"
           "<th>After</th><th>Message</th></tr></thead><tbody>\n";
    for (const CaseChange* c : cases) {
      if (!budget.Take()) continue;
      out << "<tr><td>" << CaseName(c->suite, c->name) << "</td><td>" << Text(c->target)
          << "</td><td>" << Badge(c->before) << "</td><td>" << Badge(c->after)
          << "</td><td class=\"msg\">" << Text(c->message) << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }
}

void WriteMarginSection(std::ostringstream& out, const ReportDiff& diff, RowBudget& budget) {
  out << "<h2 id=\"margin-grew\">Larger errors, still passing (" << diff.margin_grew.size()
      << ")</h2>\n<p class=\"sub\">The error grew more than " << FormatNumber(kMarginGrowthFactor)
      << "-fold and now uses at least " << FormatPercent(kMarginToleranceShare)
      << " of the tolerance: not a failure.</p>\n";
  for (const auto& [op_version, cases] : GroupMarginGrowth(diff)) {
    out << "<h3>" << Text(op_version) << " (" << cases.size() << ")</h3>\n"
        << "<table class=\"data\"><thead><tr><th>Case</th><th>Runs on</th><th>Output</th>"
           "<th>Max abs error before</th><th>After</th><th>Tolerance used</th></tr></thead>"
           "<tbody>\n";
    for (const MarginGrowth* g : cases) {
      if (!budget.Take()) continue;
      out << "<tr><td>" << CaseName(g->suite, g->name) << "</td><td>" << Text(g->target)
          << "</td><td>" << Text(g->output) << " (set " << g->set_index
          << ")</td><td class=\"num\">" << FormatNumber(g->error_before)
          << "</td><td class=\"num\">" << FormatNumber(g->error_after) << "</td><td class=\"num\">"
          << FormatPercent(g->tolerance_used) << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  }
}

void WriteOnlyInOne(std::ostringstream& out, const char* title,
                    const std::vector<std::string>& keys, RowBudget& budget) {
  if (keys.empty()) return;
  out << "<h3>" << title << " (" << keys.size() << ")</h3>\n<p class=\"names\">";
  for (const std::string& key : keys) {
    if (budget.Take()) out << "<code>" << Text(key) << "</code> ";
  }
  out << "</p>\n";
}

}  // namespace

std::string RenderReportDiffHtml(const ReportDiff& diff, const std::string& before_name,
                                 const std::string& after_name, size_t max_rows) {
  const size_t worse = diff.Count(VerdictChange::kWorse);
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      << "<title>onnxgate diff-reports</title>\n<style>" << RunReportStyle()
      << "</style>\n</head>\n<body>\n<h1>onnxgate diff-reports</h1>\n<table class=\"facts\">"
      << "<tr><th>Earlier report</th><td><code>" << Text(before_name) << "</code></td></tr>"
      << "<tr><th>Later report</th><td><code>" << Text(after_name) << "</code></td></tr>"
      << "</table>\n<p id=\"summary\" class=\"gate " << (worse > 0 ? "gate-failed" : "gate-passed")
      << "\">" << Text(ReportDiffSummary(diff)) << "</p>\n"
      << "<p class=\"sub\">Sections: <a href=\"#worse\">worse</a> · <a href=\"#better\">better</a>"
      << " · <a href=\"#changed\">changed otherwise</a> · <a href=\"#margin-grew\">larger "
         "errors</a> · <a href=\"#one-report\">in one report only</a></p>\n";
  RowBudget budget{max_rows};
  WriteChangeSection(out, diff, VerdictChange::kWorse, "worse", "Worse", budget);
  WriteChangeSection(out, diff, VerdictChange::kBetter, "better", "Better", budget);
  WriteChangeSection(out, diff, VerdictChange::kOther, "changed", "Changed otherwise", budget);
  WriteMarginSection(out, diff, budget);
  out << "<h2 id=\"one-report\">In one report only ("
      << diff.only_before.size() + diff.only_after.size() << ")</h2>\n";
  if (diff.only_before.empty() && diff.only_after.empty()) out << "<p class=\"sub\">None.</p>\n";
  WriteOnlyInOne(out, "Only in the earlier report", diff.only_before, budget);
  WriteOnlyInOne(out, "Only in the later report", diff.only_after, budget);
  if (budget.rows > max_rows) {
    out << "<p>... and " << budget.rows - max_rows << " more rows (see the JSON output).</p>\n";
  }
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace onnxgate
