// HTML report writer: the page, its header and totals, and the case tables. The matrix,
// coverage and latency sections are in html_matrix.cc and html_latency.cc.
#include "reports/html_writer.h"

#include <algorithm>
#include <cmath>

#include "reports/format.h"
#include "reports/html_internal.h"
#include "reports/matrix_summary.h"
#include "reports/model_summary.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace html_internal {

std::string Text(std::string_view text) { return XmlEscapeText(text); }
std::string Attr(std::string_view text) { return XmlEscapeAttribute(text); }

namespace {

// No '<' or '&' here: the page stays well-formed XML.
constexpr char kStyle[] = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 margin:0 24px 48px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:18px 0 6px}
h2{font-size:18px;margin:30px 0 10px;padding-bottom:4px;border-bottom:1px solid #d0d7de}
h3{font-size:15px;margin:18px 0 6px}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:4px 0;padding:4px 8px;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;
 white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse}
th,td{padding:2px 6px;text-align:left;vertical-align:top}
a{color:#0550ae}
.facts th{font-weight:normal;color:#57606a;padding-right:14px;white-space:nowrap}
.facts td{overflow-wrap:anywhere}
.data{margin:6px 0}
.data th,.data td{border:1px solid #d0d7de}
.data thead th{background:#f6f8fa}
.num{text-align:right;white-space:nowrap}
.nums{text-align:right}
.cases{table-layout:fixed;width:100%}
.cases td{overflow-wrap:anywhere}
.cases .c-case{width:25%}.cases .c-ep{width:8em}.cases .c-verdict{width:7.5em}
.cases .hscroll td,.cases .hscroll th{overflow-wrap:normal}
.ops{margin-top:2px}
.margin{font-size:12px}.margin.bad{color:#cf222e;font-weight:600}
.latency td.name{overflow-wrap:break-word}
.hscroll{overflow-x:auto;max-width:100%}
tr.msgrow td{border-top:none;color:#57606a;font-size:12px;word-break:break-word}
.sub{color:#57606a;font-size:12px}
.msg{margin-bottom:4px;word-break:break-word}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;
 white-space:nowrap}
.gate{font-weight:600;padding:6px 10px;border-radius:4px;margin:8px 0}
.gate-passed{background:#8fd19e}.gate-failed{background:#e5534b;color:#fff}
.gate-failed a{color:#fff}
.interrupted{background:#e5534b;color:#fff;font-weight:600;padding:6px 10px;border-radius:4px}
.totals .badge{font-size:14px;padding:3px 12px;margin:2px 6px 2px 0}
.v-PASS{background:#8fd19e}.v-FAIL,.v-CRASH,.v-TIMEOUT,.v-UNRESOLVED,.v-XPASS{background:#e5534b;
 color:#fff}.v-UNSUPPORTED,.v-SKIP{background:#d0d7de}.v-XFAIL{background:#f2c14e}
.v-TOTAL{background:#24292f;color:#fff}
.cmp{margin:4px 0}.cmp th,.cmp td{border:1px solid #e1e4e8;font-size:12px}
.cmp th{background:#f6f8fa}
.legend{font-size:12px;color:#57606a}.li{white-space:nowrap;margin-right:4px}
.sw{display:inline-block;width:12px;height:12px;border:1px solid #bbb;margin:0 4px 0 10px;
 vertical-align:-2px}
.passing{background:#8fd19e}.partial{background:#d4ecb0}.failing{background:#e5534b;color:#fff}
.expected{background:#f2c14e}.unsupported{background:#d0d7de}.empty{background:#fff}
.none{background:#e6e9ed}
.gridwrap{overflow:auto;max-height:85vh;border:1px solid #d0d7de;margin-top:6px}
.grid{font-size:12px}
.grid td,.grid th{border:1px solid #eaeef2;padding:1px 4px}
.grid td{background:#e6e9ed;min-width:30px;text-align:center}
.grid td.n{background:#fff;text-align:right;color:#57606a}
.grid td.k.empty{background:#fff;color:#8c959f}
.grid td.passing{background:#8fd19e}.grid td.partial{background:#d4ecb0}
.grid td.failing{background:#e5534b}.grid td.expected{background:#f2c14e}
.grid td.unsupported{background:#d0d7de}
.grid td.failing a{color:#fff;font-weight:600}
.grid .g{border-left:2px solid #afb8c1}
.grid thead th{position:sticky;top:0;background:#f6f8fa;z-index:2;text-align:center}
.grid thead tr.eps th{top:21px;font-weight:normal;font-size:11px}
.grid th.op{position:sticky;left:0;background:#fff;z-index:1;white-space:nowrap;text-align:left}
.grid thead th.op{z-index:3;background:#f6f8fa}
#only-open:checked ~ .gridwrap tr.r-passing,#only-open:checked ~ .gridwrap tr.r-empty{display:none}
.names code{display:inline-block;margin:1px 4px 1px 0;padding:0 4px;background:#f6f8fa;
 border-radius:3px}
.chart text{font-size:12px;fill:#1f2328}
.chart .b-baseline{fill:#afb8c1}
.chart .l-regression .b-median{fill:#e5534b}.chart .l-improvement .b-median{fill:#2da44e}
.chart .l-unchanged .b-median{fill:#54aeff}.chart .l-inconclusive .b-median{fill:#f2c14e}
.chart .l-no-baseline .b-median,.chart .b-median{fill:#8c959f}
tr.l-regression .lv{color:#cf222e;font-weight:600}tr.l-error .lv{color:#cf222e;font-weight:600}tr.l-improvement .lv{color:#1a7f37}
)css";

// Order of the case tables: what most needs a look first.
int Severity(Verdict v) {
  switch (v) {
    case Verdict::kFail: return 0;
    case Verdict::kCrash: return 1;
    case Verdict::kTimeout: return 2;
    case Verdict::kUnresolved: return 3;
    case Verdict::kXpass: return 4;
    case Verdict::kUnsupported: return 5;
    case Verdict::kXfail: return 6;
    case Verdict::kSkip: return 7;
    case Verdict::kPass: return 8;
  }
  return 8;
}

std::string Badge(const std::string& verdict, const std::string& text) {
  return "<span class=\"badge v-" + verdict + "\">" + text + "</span>";
}

std::string VerdictBadge(Verdict v) { return Badge(VerdictToString(v), VerdictToString(v)); }

void WriteFact(std::ostringstream& out, const char* name, const std::string& html) {
  out << "<tr><th>" << name << "</th><td>" << html << "</td></tr>\n";
}

// The EPs the run asked for; for a bench --against, each runtime/EP measured with the
// reference's runtime/EP it was judged against.
std::string EpsFact(const RunRecord& run) {
  std::vector<std::string> pairs;
  for (const LatencyRecord& r : run.latency) {
    if (r.against.empty()) continue;
    const std::string pair = TargetName(r) + " against " + r.against;
    if (std::find(pairs.begin(), pairs.end(), pair) == pairs.end()) pairs.push_back(pair);
  }
  return Text(JoinStrings(pairs.empty() ? run.selection.eps : pairs, ", "));
}

void WriteHeader(std::ostringstream& out, const RunRecord& run) {
  out << "<table class=\"facts\">\n";
  if (run.runtimes.size() > 1) {
    std::vector<std::string> runtimes;
    for (const RuntimeRecord& r : run.runtimes) {
      runtimes.push_back("<b>" + Text(r.label) + "</b> " + Text(r.version));
    }
    WriteFact(out, "Runtimes",
              JoinStrings(runtimes, ", ") + " <span class=\"sub\">(side by side)</span>");
  } else if (!run.runtime_name.empty()) {
    WriteFact(out, "Runtime", "<b>" + Text(run.runtime_name) + "</b> " + Text(run.runtime_version));
  }
  WriteFact(out, "Tool", Text(run.tool_name + " " + run.tool_version));
  if (!run.suites.empty()) WriteFact(out, "Suites", Text(JoinStrings(run.suites, ", ")));
  const std::string eps = EpsFact(run);
  if (!eps.empty()) WriteFact(out, "EPs", eps);
  if (!run.selection.filter.empty()) {
    WriteFact(out, "Filter", "<code>" + Text(run.selection.filter) + "</code>");
  }
  if (run.selection.shard_count > 1) {
    WriteFact(out, "Shard",
              std::to_string(run.selection.shard_index + 1) + " of " +
                  std::to_string(run.selection.shard_count));
  }
  std::string host = Text(run.host.hostname);
  std::vector<std::string> parts;
  if (!run.host.os.empty()) parts.push_back(run.host.os);
  if (!run.host.cpu_model.empty()) parts.push_back(run.host.cpu_model);
  if (run.host.logical_cores > 0) {
    parts.push_back(std::to_string(run.host.logical_cores) + " cores");
  }
  if (!parts.empty()) host += " <span class=\"sub\">" + Text(JoinStrings(parts, ", ")) + "</span>";
  WriteFact(out, "Host", host);
  if (!run.isolation.empty()) WriteFact(out, "Isolation", Text(run.isolation));
  WriteFact(out, "Started",
            FormatUtcTime(run.start_time) + " <span class=\"sub\">(" +
                FormatNumber(run.duration_s) + " s)</span>");
  if (!run.command_line.empty()) {
    WriteFact(out, "Command", "<code>" + Text(ShellJoin(run.command_line)) + "</code>");
  }
  out << "</table>\n";
}

void WriteTotals(std::ostringstream& out, const RunRecord& run) {
  const VerdictCounts totals = CountVerdicts(run.cases);
  out << "<p class=\"totals\" id=\"totals\">"
      << Badge("TOTAL", std::to_string(totals.total()) + " cases");
  for (Verdict v : kAllVerdicts) {
    if (totals[v] == 0) continue;
    out << Badge(VerdictToString(v),
                 std::string(VerdictToString(v)) + " " + std::to_string(totals[v]));
  }
  out << "</p>\n";
}

// The ops a case uses with their versions, ", " between them so that a long list (a function
// expanded into its body has dozens) wraps within the case column.
void WriteOpList(std::ostringstream& out, const CaseRecord& c) {
  if (c.op_versions.empty()) return;
  out << "<div class=\"sub ops\">";
  const char* separator = "";
  for (const auto& [op, version] : c.op_versions) {
    out << separator << Text(op) << ":" << version;
    separator = ", ";
  }
  out << "</div>";
}

// The fixed columns of the case tables: the last column (what happened) takes the rest of the
// width, and long names and op lists wrap inside theirs, so the tables never pass the window.
void WriteCaseTableStart(std::ostringstream& out, const char* id, const char* last_column) {
  out << "<table class=\"data cases\" id=\"" << id << "\"><colgroup><col class=\"c-case\"/>"
      << "<col class=\"c-ep\"/><col class=\"c-verdict\"/><col/></colgroup><thead><tr>"
      << "<th>Case</th><th>EP</th><th>Verdict</th><th>" << last_column
      << "</th></tr></thead><tbody>\n";
}

// The nodes that ran on a provider other than their target's first (--fallback warn), a line
// per target: how many, by op, and how many of them only compute shapes.
void WriteFallbackSection(std::ostringstream& out, const RunRecord& run) {
  const auto by_target = FallbacksByTarget(run);
  if (by_target.empty()) return;
  out << "<h2 id=\"fallback\">Fallback</h2>\n<ul>\n";
  for (const auto& [target, summary] : by_target) {
    out << "<li><code>" << Text(target) << "</code>, " << summary.cases
        << " case(s): " << Text(DescribeFallbacks(summary)) << "</li>\n";
  }
  out << "</ul>\n";
}

// The metric thresholds an output was judged by (suite.json "metrics"), one line each.
void WriteMetrics(std::ostringstream& out, const CaseRecord& c) {
  for (const OutputComparison& o : c.outputs) {
    for (const MetricRecord& m : o.metrics) {
      out << "<div class=\"margin" << (m.passed ? "" : " bad") << "\"><code>" << Text(o.output_name)
          << "</code> set " << o.set_index << ": " << Text(DescribeMetric(m)) << "</div>";
    }
  }
}

void WriteComparisons(std::ostringstream& out, const CaseRecord& c) {
  bool any = false;
  for (const OutputComparison& o : c.outputs) {
    if (o.passed || !o.metrics.empty()) continue;
    if (!any) {
      out << "<div class=\"hscroll\"><table class=\"cmp\"><tr><th>Output</th><th>Type</th>"
             "<th>Max abs err</th><th>Max rel err</th><th>Mismatches</th><th>Worst element</th>"
             "<th>Would pass with</th><th>Used</th></tr>\n";
      any = true;
    }
    std::string type = o.dtype + FormatShape(o.expected_shape);
    if (o.actual_shape != o.expected_shape) type += ", got " + FormatShape(o.actual_shape);
    out << "<tr><td><code>" << Text(o.output_name) << "</code> set " << o.set_index << "</td><td>"
        << Text(type) << "</td>";
    if (!o.error.empty()) {
      out << "<td colspan=\"5\">" << Text(o.error) << "</td>";
    } else {
      out << "<td class=\"num\">" << FormatNumber(o.max_abs_error) << "</td><td class=\"num\">"
          << FormatNumber(o.max_rel_error) << "</td><td class=\"num\">" << o.mismatch_count << "/"
          << o.total_elements << " (" << FormatPercent(o.mismatch_share) << ")</td><td>";
      if (o.worst_index >= 0) {
        out << "at " << o.worst_index << " " << FormatShape(o.worst_index_nd) << ": expected <b>"
            << Text(o.worst_expected) << "</b>, got <b>" << Text(o.worst_actual) << "</b>";
      }
      out << "</td><td>";
      const bool rtol = std::isfinite(o.min_passing_rtol);
      const bool atol = std::isfinite(o.min_passing_atol);
      if (rtol) out << "rtol ≥ " << FormatNumber(o.min_passing_rtol);
      if (rtol && atol) out << " or ";
      if (atol) out << "atol ≥ " << FormatNumber(o.min_passing_atol);
      if (!rtol && !atol) out << "no tolerance";
      out << "</td>";
    }
    out << "<td>rtol " << FormatNumber(o.rtol) << ", atol " << FormatNumber(o.atol)
        << "</td></tr>\n";
  }
  if (any) out << "</table></div>\n";
}

void WriteFailingCase(std::ostringstream& out, const CaseRecord& c, const std::string& anchor,
                      const HtmlOptions& options) {
  out << "<tr id=\"" << anchor << "\"><td><b>" << Text(c.name) << "</b><div class=\"sub\">"
      << Text(c.suite);
  if (!c.opset_imports.empty()) out << " · opset " << Text(FormatOpsetImports(c.opset_imports));
  out << "</div>";
  WriteOpList(out, c);
  out << "</td><td>" << Text(TargetName(c)) << "</td><td>" << VerdictBadge(c.verdict);
  if (c.outcome != c.verdict) {
    out << "<div class=\"sub\">outcome " << VerdictToString(c.outcome) << "</div>";
  }
  out << "</td><td>";
  if (!c.message.empty()) {
    out << "<div class=\"msg\">" << Text(OneLine(c.message, options.max_message_chars)) << "</div>";
  }
  if (!c.expectation_reason.empty()) {
    out << "<div class=\"sub\">expectation: " << Text(c.expectation_reason) << "</div>";
  }
  if (c.first_divergence) {
    out << "<div class=\"msg\">First diverges at " << Text(DescribeDivergence(*c.first_divergence))
        << "</div>";
  }
  WriteMetrics(out, c);
  WriteComparisons(out, c);
  for (const std::string& line : FormatDeclines(c.placements)) {
    out << "<div class=\"sub\">" << Text(line) << "</div>";
  }
  if (!c.reproducer.empty()) {
    out << "<pre class=\"repro\">" << Text(OneLine(c.reproducer, 4000)) << "</pre>";
  }
  out << "</td></tr>\n";
}

// Cases by severity, stable within a verdict; returns the anchors of those shown.
CaseAnchors WriteFailingCases(std::ostringstream& out, const RunRecord& run,
                              const std::vector<size_t>& rows, const HtmlOptions& options) {
  CaseAnchors anchors;
  out << "<h2 id=\"failing\">Failing cases (" << rows.size() << ")</h2>\n";
  if (rows.empty()) {
    out << "<p>No case failed, crashed, timed out, was unresolved or passed unexpectedly.</p>\n";
    return anchors;
  }
  const size_t shown = std::min(rows.size(), options.max_failing_cases);
  WriteCaseTableStart(out, "failing-table", "What happened");
  for (size_t i = 0; i < shown; ++i) {
    const CaseRecord& c = run.cases[rows[i]];
    const std::string anchor = "case-" + std::to_string(rows[i]);
    anchors.emplace(std::make_pair(c.name, TargetName(c)), anchor);
    WriteFailingCase(out, c, anchor, options);
  }
  out << "</tbody></table>\n";
  if (rows.size() > shown) {
    out << "<p>... and " << rows.size() - shown << " more (see the JSON report).</p>\n";
  }
  return anchors;
}

// A run of models: every case with the margin of each output to its tolerance or metric
// thresholds, failing rows linking to their details.
void WriteModelsSection(std::ostringstream& out, const RunRecord& run, const CaseAnchors& anchors,
                        const HtmlOptions& options) {
  out << "<h2 id=\"models\">Models (" << run.cases.size() << ")</h2>\n";
  const size_t shown = std::min(run.cases.size(), options.max_other_cases);
  out << "<table class=\"data cases\" id=\"models-table\"><colgroup><col class=\"c-case\"/>"
      << "<col class=\"c-ep\"/><col class=\"c-verdict\"/><col/></colgroup><thead><tr>"
      << "<th>Case</th><th>EP</th><th>Verdict</th><th>Margin to tolerance, per output</th></tr>"
      << "</thead><tbody>\n";
  for (size_t i = 0; i < shown; ++i) {
    const CaseRecord& c = run.cases[i];
    const auto anchor = anchors.find({c.name, TargetName(c)});
    out << "<tr><td>";
    if (anchor != anchors.end()) {
      out << "<a href=\"#" << Attr(anchor->second) << "\">" << Text(c.name) << "</a>";
    } else {
      out << Text(c.name);
    }
    out << "<div class=\"sub\">" << Text(c.suite) << " · " << c.op_types.size()
        << " op types</div></td><td>" << Text(TargetName(c)) << "</td><td>"
        << VerdictBadge(c.verdict) << "</td><td>";
    for (const OutputComparison& o : c.outputs) {
      out << "<div class=\"margin" << (o.passed ? "" : " bad") << "\"><code>" << Text(o.output_name)
          << "</code> set " << o.set_index << ": " << Text(DescribeOutputMargin(o)) << "</div>";
    }
    if (c.outputs.empty()) out << Text(OneLine(c.message, options.max_message_chars));
    out << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
  if (run.cases.size() > shown) {
    out << "<p>... and " << run.cases.size() - shown << " more (see the JSON report).</p>\n";
  }
}

// The node each failing model first departs from its golden at, when its golden holds the
// intermediate values; nothing when no case has one.
void WriteFailingNodes(std::ostringstream& out, const RunRecord& run, const CaseAnchors& anchors) {
  std::vector<const CaseRecord*> rows;
  for (const CaseRecord& c : run.cases) {
    if (c.first_divergence && IsFailingVerdict(c.verdict)) rows.push_back(&c);
  }
  if (rows.empty()) return;
  out << "<h2 id=\"failing-nodes\">Failing nodes (" << rows.size() << ")</h2>\n<ul>\n";
  for (const CaseRecord* c : rows) {
    const auto anchor = anchors.find({c->name, TargetName(*c)});
    const std::string name = Text(c->name) + " [" + Text(TargetName(*c)) + "]";
    out << "<li>";
    if (anchor != anchors.end()) {
      out << "<a href=\"#" << Attr(anchor->second) << "\">" << name << "</a>";
    } else {
      out << name;
    }
    out << ": " << Text(DescribeDivergence(*c->first_divergence)) << "</li>\n";
  }
  out << "</ul>\n";
}

void WriteOtherCases(std::ostringstream& out, const RunRecord& run, const std::vector<size_t>& rows,
                     const HtmlOptions& options) {
  out << "<h2 id=\"other\">Unsupported, expected failures and skipped (" << rows.size()
      << ")</h2>\n";
  if (rows.empty()) {
    out << "<p>None.</p>\n";
    return;
  }
  const size_t shown = std::min(rows.size(), options.max_other_cases);
  out << "<details><summary>Show " << shown << " cases</summary>\n";
  WriteCaseTableStart(out, "other-table", "Reason");
  for (size_t i = 0; i < shown; ++i) {
    const CaseRecord& c = run.cases[rows[i]];
    out << "<tr><td>" << Text(c.name) << "</td><td>" << Text(TargetName(c)) << "</td><td>"
        << VerdictBadge(c.verdict);
    if (c.outcome != c.verdict) {
      out << " <span class=\"sub\">" << VerdictToString(c.outcome) << "</span>";
    }
    out << "</td><td>" << Text(OneLine(c.message, options.max_message_chars));
    if (!c.expectation_reason.empty()) {
      out << "<div class=\"sub\">expectation: " << Text(c.expectation_reason) << "</div>";
    }
    out << "</td></tr>\n";
  }
  out << "</tbody></table></details>\n";
  if (rows.size() > shown) {
    out << "<p>... and " << rows.size() - shown << " more (see the JSON report).</p>\n";
  }
}

// Right under the header: an interrupted run's tables hold only what finished, so the banner
// says so before the numbers, and lists the selected cases that never ran.
void WriteRunStatus(std::ostringstream& out, const RunRecord& run, const HtmlOptions& options) {
  if (run.status != RunStatus::kInterrupted) return;
  out << "<p class=\"interrupted\" id=\"run-status\">Run interrupted: "
      << Text(OneLine(run.status_message, options.max_message_chars)) << "</p>\n";
  if (run.not_run.empty()) return;
  out << "<h2 id=\"not-run\">Not run (" << run.not_run.size() << ")</h2>\n<ul>\n";
  const size_t shown = std::min(run.not_run.size(), options.max_other_cases);
  for (size_t i = 0; i < shown; ++i) {
    const NotRunRecord& r = run.not_run[i];
    out << "<li><code>" << Text(r.suite + "/" + r.name) << "</code> [" << Text(TargetName(r))
        << "]: " << Text(OneLine(r.reason, options.max_message_chars)) << "</li>\n";
  }
  out << "</ul>\n";
  if (run.not_run.size() > shown) {
    out << "<p>... and " << run.not_run.size() - shown << " more (see the JSON report).</p>\n";
  }
}

// A gate's outcome in one line, linking the unexpected cases the failing table shows (an
// unexpected UNSUPPORTED links to its table), then the expectations file of each runtime/EP.
void WriteGateBanner(std::ostringstream& out, const RunRecord& run, const CaseAnchors& anchors) {
  if (!run.gate) return;
  const GateRecord& gate = *run.gate;
  constexpr size_t kMaxLinks = 10;
  if (gate.passed) {
    out << "<p class=\"gate gate-passed\" id=\"gate\">PASSED</p>\n";
  } else {
    out << "<p class=\"gate gate-failed\" id=\"gate\">FAILED: " << gate.unexpected.total()
        << " unexpected";
    const std::string kinds = DescribeUnexpected(gate.unexpected);
    if (!kinds.empty()) out << " (" << Text(kinds) << ")";
    if (run.status == RunStatus::kInterrupted) out << "; the run was interrupted";
    size_t linked = 0;
    for (const CaseRecord& c : run.cases) {
      if (!IsUnexpected(c, gate.strict) || linked == kMaxLinks) continue;
      auto a = anchors.find({c.name, TargetName(c)});
      const std::string href = a != anchors.end() ? a->second : "other";
      out << (linked++ == 0 ? ": " : ", ") << "<a href=\"#" << Attr(href) << "\">" << Text(c.name)
          << " [" << Text(TargetName(c)) << "]</a>";
    }
    if (gate.unexpected.total() > static_cast<int64_t>(linked) && linked > 0) out << ", ...";
    out << "</p>\n";
  }
  out << "<p class=\"sub\" id=\"gate-expectations\">Judged by: ";
  for (size_t i = 0; i < gate.expectations.size(); ++i) {
    const GateExpectationsRecord& e = gate.expectations[i];
    out << (i == 0 ? "" : "; ") << Text(TargetName(e.runtime, e.ep)) << " ";
    if (e.found) {
      out << "<code>" << Text(e.file) << "</code> (" << e.entries
          << (e.entries == 1 ? " entry)" : " entries)");
    } else {
      out << "none found (<code>" << Text(e.file) << "</code>: every case must pass)";
    }
  }
  out << "</p>\n";
}

std::string RenderPage(const RunRecord& run, const HtmlOptions& options) {
  std::vector<size_t> failing, other;
  for (size_t i = 0; i < run.cases.size(); ++i) {
    const Verdict v = run.cases[i].verdict;
    if (IsFailingVerdict(v)) failing.push_back(i);
    if (v == Verdict::kUnsupported || v == Verdict::kXfail || v == Verdict::kSkip) {
      other.push_back(i);
    }
  }
  const auto by_severity = [&](size_t a, size_t b) {
    return Severity(run.cases[a].verdict) < Severity(run.cases[b].verdict);
  };
  std::stable_sort(failing.begin(), failing.end(), by_severity);
  std::stable_sort(other.begin(), other.end(), by_severity);

  // The failing cases are rendered first so the matrix cells can link to them.
  std::ostringstream failing_cases, other_cases;
  const CaseAnchors anchors = WriteFailingCases(failing_cases, run, failing, options);
  WriteOtherCases(other_cases, run, other, options);

  const std::string title = options.title.empty() ? RunTitle(run) : options.title;
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>"
      << Text(title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<h1>" << Text(title) << "</h1>\n";
  WriteGateBanner(out, run, anchors);
  WriteHeader(out, run);
  WriteRunStatus(out, run, options);
  if (!IsLatencyOnly(run)) {
    WriteTotals(out, run);
    // The failing cases come first, on the first screen: the matrix of a full suite is thousands
    // of pixels tall. A run of models lists its other cases next; operator tests the matrix.
    const bool models = IsModelRun(run);
    const std::string models_link =
        "<a href=\"#models\">models (" + std::to_string(run.cases.size()) + ")</a> · ";
    const std::string failing_link =
        "<a href=\"#failing\">failing cases (" + std::to_string(failing.size()) + ")</a> · ";
    const std::string other_link = "<a href=\"#other\">unsupported, xfail, skipped (" +
                                   std::to_string(other.size()) + ")</a> · ";
    const std::string side_by_side_link =
        RunTargets(run).size() > 1 ? "<a href=\"#side-by-side\">side by side</a> · " : "";
    const std::string matrix_link = "<a href=\"#matrix\">conformance matrix</a> · ";
    out << "<p class=\"sub\">Sections: "
        << (models ? models_link + failing_link + other_link + side_by_side_link + matrix_link
                   : failing_link + side_by_side_link + matrix_link + other_link)
        << "<a href=\"#coverage\">coverage</a> · <a href=\"#latency\">latency ("
        << run.latency.size() << ")</a></p>\n";
    if (models) {
      WriteModelsSection(out, run, anchors, options);
      WriteFailingNodes(out, run, anchors);
    }
    out << failing_cases.str();
    WriteFallbackSection(out, run);
    if (models) out << other_cases.str();
    WriteSideBySideSection(out, run, options);
    WriteMatrixSection(out, run, options, anchors, /*folded=*/models);
    if (!models) out << other_cases.str();
    WriteCoverageSection(out, run, /*folded=*/models);
  }
  WriteLatencySection(out, run, options);
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace
}  // namespace html_internal

std::string RenderHtml(const RunRecord& run, const HtmlOptions& options) {
  return html_internal::RenderPage(run, options);
}

Status WriteHtml(const RunRecord& run, const std::string& path, const HtmlOptions& options) {
  Status st = WriteFileAtomically(path, RenderHtml(run, options));
  if (!st.ok()) return st.WithContext("writing HTML report " + path);
  return OkStatus();
}

}  // namespace onnxgate
