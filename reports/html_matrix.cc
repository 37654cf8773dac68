// The HTML page's conformance matrix grid and coverage section.
#include <algorithm>
#include <set>

#include "reports/format.h"
#include "reports/html_internal.h"
#include "reports/matrix_summary.h"

namespace onnxgate {
namespace html_internal {
namespace {

// Everything the grid knows about one op: the versions it has (from the coverage, which knows
// the registry, and from the matrix) and its cells by (version, target: EP or runtime/EP).
struct OpGrid {
  std::set<int64_t> versions;
  std::map<std::pair<int64_t, std::string>, const MatrixCell*> cells;
  VerdictCounts counts;
};

std::string CellTitle(const MatrixCell& cell, const HtmlOptions& options) {
  std::string title = cell.op + " v" + std::to_string(cell.since_version) + " on " +
                      TargetName(cell) + ": " + FormatVerdictCounts(cell.counts);
  if (cell.failing_cases.empty()) return title;
  const size_t shown = std::min(cell.failing_cases.size(), options.max_tooltip_cases);
  title += "\nfailing:";
  for (size_t i = 0; i < shown; ++i) title += "\n  " + OneLine(cell.failing_cases[i], 120);
  if (cell.failing_cases.size() > shown) {
    title += "\n  ... and " + std::to_string(cell.failing_cases.size() - shown) + " more";
  }
  return title;
}

void WriteCell(std::ostringstream& out, const std::string& op, int64_t version,
               const std::string& target, const OpGrid& grid, bool group_start,
               const HtmlOptions& options, const CaseAnchors& anchors) {
  const char* group = group_start ? " g" : "";
  auto it = grid.cells.find({version, target});
  if (it == grid.cells.end()) {
    if (grid.versions.count(version) == 0) {
      out << "<td" << (group_start ? " class=\"g\"" : "") << "></td>";
    } else {
      out << "<td class=\"k empty" << group << "\" title=\""
          << Attr(op + " v" + std::to_string(version) + " on " + target + ": no case")
          << "\">–</td>";
    }
    return;
  }
  const MatrixCell& cell = *it->second;
  const std::string text =
      std::to_string(cell.counts[Verdict::kPass]) + "/" + std::to_string(cell.counts.total());
  out << "<td class=\"k " << CellClassName(ClassifyCounts(cell.counts)) << group << "\" data-n=\""
      << cell.counts.total() << "\" title=\"" << Attr(CellTitle(cell, options)) << "\">";
  // Link to the first failing case that the failing-case table shows.
  std::string anchor;
  for (const std::string& name : cell.failing_cases) {
    auto a = anchors.find({name, target});
    if (a != anchors.end()) {
      anchor = a->second;
      break;
    }
  }
  if (anchor.empty()) {
    out << text;
  } else {
    out << "<a href=\"#" << Attr(anchor) << "\">" << text << "</a>";
  }
  out << "</td>";
}

void WriteLegend(std::ostringstream& out) {
  static constexpr std::pair<const char*, const char*> kEntries[] = {
      {"passing", "all passed"},
      {"partial", "some passed, the rest unsupported, xfail or skipped"},
      {"failing", "fail, crash, timeout, unresolved or xpass"},
      {"expected", "expected failures (xfail)"},
      {"unsupported", "unsupported or skipped only"},
      {"empty", "no case"},
      {"none", "the op has no such version"},
  };
  out << "<p class=\"legend\">";
  for (const auto& [css_class, meaning] : kEntries) {
    out << "<span class=\"li\"><span class=\"sw " << css_class << "\"></span>" << meaning
        << "</span> ";
  }
  out << "<br/>Cell text: passed/cases; hover for the counts per verdict and the failing cases, "
         "click a red cell for its first failing case.</p>\n";
}

// The matrix's summary line, legend, row filter and grid; with `used_ops_only`, a row only for
// the ops that have a cell (a run of models), not for every operator the coverage knows.
void WriteMatrixGrid(std::ostringstream& out, const RunRecord& run, const HtmlOptions& options,
                     const CaseAnchors& anchors, bool used_ops_only) {
  std::map<std::string, OpGrid> ops;
  std::set<int64_t> versions;
  std::set<std::string> used;
  for (const MatrixCell& cell : run.matrix) used.insert(cell.op);
  for (const CoverageRecord& r : run.coverage) {
    if (used_ops_only && used.count(r.op) == 0) continue;
    OpGrid& grid = ops[r.op];
    grid.versions.insert(r.covered_versions.begin(), r.covered_versions.end());
    grid.versions.insert(r.uncovered_versions.begin(), r.uncovered_versions.end());
    versions.insert(grid.versions.begin(), grid.versions.end());
  }
  for (const MatrixCell& cell : run.matrix) {
    OpGrid& grid = ops[cell.op];
    grid.versions.insert(cell.since_version);
    grid.cells[{cell.since_version, TargetName(cell)}] = &cell;
    for (Verdict v : kAllVerdicts) grid.counts[v] += cell.counts[v];
    versions.insert(cell.since_version);
  }
  std::set<std::string> with_cells;
  for (const MatrixCell& cell : run.matrix) with_cells.insert(TargetName(cell));
  const std::vector<std::string> targets = OrderTargets(run, std::move(with_cells));

  std::map<CellClass, int> per_class;
  for (const auto& [op, grid] : ops) ++per_class[ClassifyCounts(grid.counts)];
  out << "<p>" << ops.size() << " ops: " << per_class[CellClass::kFailing] << " with failures, "
      << per_class[CellClass::kPassing] << " all passing, " << per_class[CellClass::kPartial]
      << " partly passing, " << per_class[CellClass::kExpected] << " with expected failures only, "
      << per_class[CellClass::kUnsupported] << " unsupported or skipped only, "
      << per_class[CellClass::kEmpty] << " without a case. Columns are op versions (the "
      << "version an op took effect, not the model's opset)";
  if (targets.size() == 1) out << " on <b>" << Text(targets[0]) << "</b>";
  if (targets.size() > 1) {
    out << ", one column per " << (run.runtimes.size() > 1 ? "runtime/EP" : "EP");
  }
  out << ".</p>\n";
  WriteLegend(out);
  // A checkbox and a sibling selector filter the rows without any script.
  out << "<input type=\"checkbox\" id=\"only-open\"/><label for=\"only-open\"> show only ops that "
         "are not all passing</label>\n<div class=\"gridwrap\"><table class=\"grid\" "
         "id=\"matrix-grid\">\n<thead><tr><th class=\"op\""
      << (targets.size() > 1 ? " rowspan=\"2\"" : "") << ">Op</th><th class=\"n\""
      << (targets.size() > 1 ? " rowspan=\"2\"" : "") << ">Cases</th>";
  for (int64_t v : versions) {
    out << "<th class=\"g\"";
    if (targets.size() > 1) out << " colspan=\"" << targets.size() << "\"";
    out << ">v" << v << "</th>";
  }
  out << "</tr>\n";
  if (targets.size() > 1) {
    out << "<tr class=\"eps\">";
    for (size_t i = 0; i < versions.size(); ++i) {
      for (size_t e = 0; e < targets.size(); ++e) {
        out << "<th" << (e == 0 ? " class=\"g\"" : "") << ">" << Text(targets[e]) << "</th>";
      }
    }
    out << "</tr>\n";
  }
  out << "</thead>\n<tbody>\n";
  for (const auto& [op, grid] : ops) {
    out << "<tr class=\"r-" << CellClassName(ClassifyCounts(grid.counts)) << "\"><th class=\"op\">"
        << Text(op) << "</th><td class=\"n\">" << grid.counts.total() << "</td>";
    for (int64_t v : versions) {
      for (size_t e = 0; e < targets.size(); ++e) {
        WriteCell(out, op, v, targets[e], grid, e == 0, options, anchors);
      }
    }
    out << "</tr>\n";
  }
  out << "</tbody></table></div>\n";
}

// The operators without a case, and those with versions without one.
void WriteCoverageLists(std::ostringstream& out, const CoverageTotals& totals) {
  out << "<h3>Operators with no case (" << totals.uncovered_ops.size() << ")</h3>\n";
  if (totals.uncovered_ops.empty()) {
    out << "<p>None.</p>\n";
  } else {
    out << "<p class=\"names\">";
    for (size_t i = 0; i < totals.uncovered_ops.size(); ++i) {
      out << (i > 0 ? " " : "") << "<code>" << Text(totals.uncovered_ops[i]) << "</code>";
    }
    out << "</p>\n";
  }
  out << "<h3>Operators with versions without a case (" << totals.partial_ops.size() << ")</h3>\n";
  if (totals.partial_ops.empty()) {
    out << "<p>None.</p>\n";
    return;
  }
  out << "<table class=\"data\" id=\"partial-coverage\"><thead><tr><th>Op</th><th>Versions with "
         "a case</th><th>Versions without</th></tr></thead><tbody>\n";
  for (const CoverageRecord* r : totals.partial_ops) {
    out << "<tr><td><code>" << Text(r->op) << "</code></td><td>"
        << FormatVersions(r->covered_versions) << "</td><td>"
        << FormatVersions(r->uncovered_versions) << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

void WriteMatrixSection(std::ostringstream& out, const RunRecord& run, const HtmlOptions& options,
                        const CaseAnchors& anchors, bool folded) {
  out << "<h2 id=\"matrix\">Conformance matrix</h2>\n";
  if (run.matrix.empty()) {
    out << "<p>No conformance matrix was computed for this run.</p>\n";
    return;
  }
  if (!folded) {
    WriteMatrixGrid(out, run, options, anchors, /*used_ops_only=*/false);
    return;
  }
  out << "<details id=\"matrix-folded\"><summary>Show the op x op version matrix of the "
      << MatrixRows(run.matrix).size() << " ops these models use</summary>\n";
  WriteMatrixGrid(out, run, options, anchors, /*used_ops_only=*/true);
  out << "</details>\n";
}

void WriteCoverageSection(std::ostringstream& out, const RunRecord& run, bool folded) {
  out << "<h2 id=\"coverage\">Coverage</h2>\n";
  if (run.coverage.empty()) {
    out << "<p>No operator coverage was computed for this run.</p>\n";
    return;
  }
  const CoverageTotals totals = SumCoverage(run.coverage);
  if (!folded) {
    out << "<p><b>" << Text(FormatCoverageLine(totals)) << "</b></p>\n";
    WriteCoverageLists(out, totals);
    return;
  }
  // A run of models says nothing about the operators no model uses; the numbers stay available.
  out << "<details id=\"coverage-folded\"><summary>Show the ONNX operator coverage</summary>\n"
      << "<p>" << Text(FormatCoverageLine(totals)) << "</p>\n";
  WriteCoverageLists(out, totals);
  out << "</details>\n";
}

}  // namespace html_internal
}  // namespace onnxgate
