// RenderCompatMatrixHtml: the compatibility matrix as one self-contained page.
#include <set>
#include <sstream>
#include <string_view>

#include "harness/compat_matrix.h"
#include "reports/format.h"
#include "reports/matrix_summary.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

// Fixed table layouts and wrapping names keep the page inside a 1280 px window however many
// columns it has; the grid's header row stays in view while the page scrolls.
constexpr char kStyle[] = R"css(
*{box-sizing:border-box}
body{font:14px/1.4 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;margin:16px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px}
code{font-size:12px}
.sub{color:#57606a;font-size:12px}
table{border-collapse:collapse}
.data,.grid{width:100%;table-layout:fixed}
.data th,.data td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top;
 overflow-wrap:anywhere}
.data thead th,.grid thead th{position:sticky;top:0;background:#f6f8fa;z-index:2}
.num{text-align:right}
.legend{font-size:12px;color:#57606a}.li{white-space:nowrap;margin-right:6px}
.sw{display:inline-block;width:12px;height:12px;border:1px solid #bbb;margin:0 4px 0 8px;
 vertical-align:-2px}
.grid{font-size:12px;margin-top:6px}
.grid th,.grid td{border:1px solid #eaeef2;padding:2px 4px;overflow-wrap:anywhere}
.grid thead th{vertical-align:bottom;border-bottom:2px solid #afb8c1}
.grid th.opcol{width:14em;text-align:left}.grid th.vcol{width:5em}
.grid th.col .ep{font-weight:normal}
.grid td{text-align:center}
.grid td.op{text-align:left;font-weight:600}.grid td.op.rep{font-weight:normal;color:#8c959f}
.grid td.v{color:#57606a}
.grid tr.first td{border-top:2px solid #afb8c1}
.grid tr.d td.v::after{content:" \2260";color:#cf222e;font-weight:600}
.s-all{background:#8fd19e}.s-most{background:#d4ecb0}.s-half{background:#f2c14e}
.s-some{background:#f0a35e}.s-none{background:#e5534b;color:#fff}.s-skip{background:#d0d7de}
.nocase{background:#fff;color:#8c959f}
#only-differs:checked ~ table tr.same{display:none}
.diffs .c-case{width:22%}.diffs .c-ops{width:12%}
.badge{display:inline-block;max-width:100%;padding:1px 6px;border-radius:10px;font-weight:600;
 font-size:11px;overflow-wrap:anywhere}
.v-PASS{background:#8fd19e}.v-FAIL,.v-CRASH,.v-TIMEOUT,.v-UNRESOLVED,.v-XPASS{background:#e5534b;
 color:#fff}.v-UNSUPPORTED,.v-SKIP{background:#d0d7de}.v-XFAIL{background:#f2c14e}
.why{display:block;color:#57606a;font-size:11px;margin-top:2px}
)css";

std::string Text(std::string_view text) { return XmlEscapeText(text); }
std::string Attr(std::string_view text) { return XmlEscapeAttribute(text); }

// The colour class of a pass share.
const char* ShareClass(const PassCount& pass) {
  const std::optional<double> share = pass.Share();
  if (!share) return "s-skip";
  if (*share >= 1.0) return "s-all";
  if (*share >= 0.75) return "s-most";
  if (*share >= 0.5) return "s-half";
  if (*share > 0.0) return "s-some";
  return "s-none";
}

std::string ShareText(const PassCount& pass) {
  const std::optional<double> share = pass.Share();
  return std::to_string(pass.passed) + "/" + std::to_string(pass.run) + " passed" +
         (share ? " (" + FormatPercent(*share) + ")" : "");
}

// "runtime<br/>EP": the column's name in two lines that may wrap.
std::string ColumnHeading(const CompatColumn& column) {
  return Text(column.runtime) + "/<br/><span class=\"ep\">" + Text(column.ep) + "</span>" +
         (column.interrupted ? " <span class=\"sub\">(interrupted)</span>" : "");
}

void WriteColumns(std::ostringstream& out, const CompatMatrix& matrix) {
  out << "<table class=\"data\" id=\"columns\"><thead><tr><th style=\"width:26%\">Column "
         "(runtime/EP)</th><th style=\"width:12%\">Runtime version</th><th>Report</th>"
         "<th style=\"width:16%\">Passed of run</th><th style=\"width:24%\">Verdicts</th></tr>"
         "</thead><tbody>\n";
  for (const CompatColumn& c : matrix.columns) {
    out << "<tr><td><b>" << Text(c.name) << "</b>"
        << (c.interrupted ? " <span class=\"sub\">(interrupted run)</span>" : "") << "</td><td>"
        << Text(c.runtime_version) << "</td><td><code>" << Text(c.report)
        << "</code></td><td class=\"" << ShareClass(c.pass) << "\">" << ShareText(c.pass)
        << "</td><td>" << Text(FormatVerdictCounts(c.counts)) << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

void WriteLegend(std::ostringstream& out) {
  static constexpr std::pair<const char*, const char*> kEntries[] = {
      {"s-all", "all passed"},   {"s-most", "75% or more passed"}, {"s-half", "50% or more passed"},
      {"s-some", "some passed"}, {"s-none", "none passed"},        {"s-skip", "skipped only"},
      {"nocase", "no case"},
  };
  out << "<p class=\"legend\">";
  for (const auto& [css_class, meaning] : kEntries) {
    out << "<span class=\"li\"><span class=\"sw " << css_class << "\"></span>" << meaning
        << "</span> ";
  }
  out << "<br/>Cell text: passed/run (PASS and XPASS of every case but SKIP); hover for the "
         "counts per verdict and the failing cases. ≠ marks an op version whose pass share "
         "differs between columns.</p>\n";
}

std::string CellTitle(const CompatRow& row, const CompatColumn& column, const CompatCell& cell) {
  std::string title = row.op + " v" + std::to_string(row.since_version) + " on " + column.name +
                      ": " + ShareText(cell.pass) + "; " + FormatVerdictCounts(cell.counts);
  constexpr size_t kMaxNames = 15;
  if (cell.failing_cases.empty()) return title;
  title += "\nfailing:";
  for (size_t i = 0; i < cell.failing_cases.size() && i < kMaxNames; ++i) {
    title += "\n  " + OneLine(cell.failing_cases[i], 120);
  }
  if (cell.failing_cases.size() > kMaxNames) {
    title += "\n  ... and " + std::to_string(cell.failing_cases.size() - kMaxNames) + " more";
  }
  return title;
}

void WriteRow(std::ostringstream& out, const CompatMatrix& matrix, const CompatRow& row,
              bool first_of_op) {
  out << "<tr class=\"" << (row.differs ? "d" : "same") << (first_of_op ? " first" : "")
      << "\"><td class=\"op" << (first_of_op ? "" : " rep") << "\">" << Text(row.op)
      << "</td><td class=\"v\">v" << row.since_version << "</td>";
  for (size_t i = 0; i < row.cells.size(); ++i) {
    const std::optional<CompatCell>& cell = row.cells[i];
    if (!cell) {
      out << "<td class=\"nocase\">–</td>";
      continue;
    }
    out << "<td class=\"" << ShareClass(cell->pass) << "\" title=\""
        << Attr(CellTitle(row, matrix.columns[i], *cell)) << "\">" << cell->pass.passed << "/"
        << cell->pass.run << "</td>";
  }
  out << "</tr>\n";
}

void WriteGrid(std::ostringstream& out, const CompatMatrix& matrix) {
  WriteLegend(out);
  // A checkbox and a sibling selector filter the rows without any script.
  out << "<input type=\"checkbox\" id=\"only-differs\"/><label for=\"only-differs\"> show only "
         "op versions whose pass share differs</label>\n<table class=\"grid\" id=\"compat-grid\">"
         "<thead><tr><th class=\"opcol\">Op</th><th class=\"vcol\">Version</th>";
  for (const CompatColumn& c : matrix.columns) {
    out << "<th class=\"col\" title=\"" << Attr(c.name + " from " + c.report) << "\">"
        << ColumnHeading(c) << "</th>";
  }
  out << "</tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < matrix.rows.size(); ++i) {
    WriteRow(out, matrix, matrix.rows[i], i == 0 || matrix.rows[i - 1].op != matrix.rows[i].op);
  }
  out << "</tbody></table>\n";
}

std::string OpVersionsText(const CompatCase& c) {
  std::string text;
  for (const auto& [op, version] : c.op_versions) {
    text += (text.empty() ? "" : ", ") + op + " v" + std::to_string(version);
  }
  return text;
}

void WriteDiffering(std::ostringstream& out, const CompatMatrix& matrix, size_t max_rows) {
  out << "<h2 id=\"differs\">Cases that pass in one column and not in another ("
      << matrix.differing_cases.size() << ")</h2>\n";
  if (matrix.differing_cases.empty()) {
    out << "<p class=\"sub\">None: every case has the same outcome wherever it ran.</p>\n";
    return;
  }
  out << "<p class=\"sub\">Raw outcomes, before expectations; hover a badge for more of the "
         "message.</p>\n<table class=\"data diffs\" id=\"differs-table\"><thead><tr>"
         "<th class=\"c-case\">Case</th><th class=\"c-ops\">Op versions</th>";
  for (const CompatColumn& c : matrix.columns) out << "<th>" << ColumnHeading(c) << "</th>";
  out << "</tr></thead><tbody>\n";
  size_t shown = 0;
  for (const CompatCase& c : matrix.differing_cases) {
    if (shown++ == max_rows) break;
    out << "<tr><td><code>" << Text(c.suite + "/" + c.name) << "</code></td><td class=\"sub\">"
        << Text(OpVersionsText(c)) << "</td>";
    for (const std::optional<CompatOutcome>& o : c.outcomes) {
      if (!o) {
        out << "<td class=\"sub\">–</td>";
        continue;
      }
      const char* verdict = VerdictToString(o->outcome);
      out << "<td><span class=\"badge v-" << verdict << "\" title=\""
          << Attr(OneLine(o->message, 300)) << "\">" << verdict << "</span>";
      if (!o->message.empty())
        out << "<span class=\"why\">" << Text(OneLine(o->message, 90)) << "</span>";
      out << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
  if (matrix.differing_cases.size() > max_rows) {
    out << "<p>... and " << matrix.differing_cases.size() - max_rows
        << " more (see the JSON output).</p>\n";
  }
}

}  // namespace

std::string RenderCompatMatrixHtml(const CompatMatrix& matrix, size_t max_differing_rows) {
  std::set<std::string> reports;
  for (const CompatColumn& c : matrix.columns) reports.insert(c.report);
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      << "<title>onnxgate compatibility matrix</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n<h1>onnxgate compatibility matrix</h1>\n"
      << "<p id=\"summary\">" << matrix.columns.size() << " columns (runtime/EP) from "
      << reports.size() << " report(s); " << matrix.rows.size() << " op versions, "
      << matrix.DifferingRows() << " with pass shares that differ between columns; " << matrix.cases
      << " cases, " << matrix.differing_cases.size()
      << " that pass in one column and not in another.</p>\n"
      << "<p class=\"sub\">Sections: <a href=\"#compat-grid\">op x version grid</a> · "
         "<a href=\"#differs\">cases that differ</a></p>\n";
  WriteColumns(out, matrix);
  WriteGrid(out, matrix);
  WriteDiffering(out, matrix, max_differing_rows);
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace onnxgate
