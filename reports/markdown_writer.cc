// Markdown summary writer.
#include "reports/markdown_writer.h"

#include <algorithm>
#include <sstream>

#include "reports/format.h"
#include "reports/matrix_summary.h"
#include "reports/model_summary.h"
#include "reports/side_by_side_cases.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

// Table order: what most needs a look first, expected outcomes last.
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

// The text to show for a case: its message, else its first failing output, else the reason.
std::string Summary(const CaseRecord& c) {
  if (!c.message.empty()) return c.message;
  std::vector<std::string> lines = FailingComparisons(c);
  if (!lines.empty()) return lines[0];
  return c.expectation_reason;
}

// A fence longer than any backtick run in `body`, so the body cannot close it.
std::string Fence(const std::string& body) {
  size_t longest = 0, run = 0;
  for (char c : body) {
    run = (c == '`') ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

// A gate's outcome in one line, pointing at the table of non-passing cases, then the
// expectations file of each runtime/EP.
void WriteGateBanner(std::ostringstream& out, const RunRecord& run) {
  if (!run.gate) return;
  const GateRecord& gate = *run.gate;
  if (gate.passed) {
    out << "**PASSED**";
  } else {
    out << "**FAILED: " << gate.unexpected.total() << " unexpected**";
    const std::string kinds = DescribeUnexpected(gate.unexpected);
    if (!kinds.empty()) out << " (" << kinds << ")";
    if (run.status == RunStatus::kInterrupted) out << "; the run was interrupted";
    if (gate.unexpected.total() > 0) out << " — see *Not passing* below";
  }
  out << "\n\nJudged by: ";
  for (size_t i = 0; i < gate.expectations.size(); ++i) {
    const GateExpectationsRecord& e = gate.expectations[i];
    out << (i == 0 ? "" : "; ") << MarkdownCode(TargetName(e.runtime, e.ep)) << " ";
    if (e.found) {
      out << MarkdownCode(e.file) << " (" << e.entries
          << (e.entries == 1 ? " entry)" : " entries)");
    } else {
      out << "none found (" << MarkdownCode(e.file) << ": every case must pass)";
    }
  }
  out << "\n\n";
}

void WriteHeader(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  const std::string title = options.title.empty() ? RunTitle(run) : options.title;
  out << "## " << MarkdownCell(title, 200) << "\n\n";
  WriteGateBanner(out, run);
  std::vector<std::string> facts;
  if (run.runtimes.size() > 1) {
    std::vector<std::string> runtimes;
    for (const RuntimeRecord& r : run.runtimes) {
      runtimes.push_back(MarkdownCode(r.label) +
                         (r.version.empty() ? "" : " " + MarkdownCell(r.version, 60)));
    }
    facts.push_back("runtimes side by side " + JoinStrings(runtimes, ", "));
  } else if (!run.runtime_name.empty()) {
    std::string runtime = "runtime " + MarkdownCode(run.runtime_name);
    if (!run.runtime_version.empty()) runtime += " " + MarkdownCell(run.runtime_version, 60);
    facts.push_back(runtime);
  }
  if (!run.suites.empty()) {
    std::vector<std::string> names;
    for (const std::string& s : run.suites) names.push_back(MarkdownCode(s));
    facts.push_back("suites " + JoinStrings(names, ", "));
  }
  if (!run.selection.eps.empty()) {
    facts.push_back("EPs " + MarkdownCell(JoinStrings(run.selection.eps, ", "), 200));
  }
  if (!run.selection.filter.empty())
    facts.push_back("filter " + MarkdownCode(run.selection.filter));
  if (!run.isolation.empty()) facts.push_back("isolation " + MarkdownCode(run.isolation));
  if (run.selection.shard_count > 1) {
    facts.push_back("shard " + std::to_string(run.selection.shard_index + 1) + "/" +
                    std::to_string(run.selection.shard_count));
  }
  facts.push_back("started " + FormatUtcTime(run.start_time));
  facts.push_back(FormatNumber(run.duration_s) + " s");
  if (!run.tool_version.empty())
    facts.push_back(MarkdownCell(run.tool_name + " " + run.tool_version, 80));
  out << JoinStrings(facts, " · ") << "\n\n";
}

// One row of counts per target when the run has several (runtimes or EPs side by side).
void WriteTotals(std::ostringstream& out, const RunRecord& run) {
  std::vector<TargetCounts> rows = CountsPerTarget(run);
  const VerdictCounts totals = CountVerdicts(run.cases);
  const bool per_target = rows.size() > 1;
  if (!per_target) rows = {{"", totals}};
  std::string header = per_target ? "| Runs on | Total |" : "| Total |";
  std::string rule = per_target ? "|---|---:|" : "|---:|";
  for (Verdict v : kAllVerdicts) {
    if (totals[v] == 0) continue;
    header += std::string(" ") + VerdictToString(v) + " |";
    rule += "---:|";
  }
  out << header << "\n" << rule << "\n";
  for (const TargetCounts& row : rows) {
    std::string counts = per_target ? "| " + MarkdownCode(row.target) + " | " : "| ";
    counts += std::to_string(row.counts.total()) + " |";
    for (Verdict v : kAllVerdicts) {
      if (totals[v] != 0) counts += " " + std::to_string(row.counts[v]) + " |";
    }
    out << counts << "\n";
  }
  out << "\n";
}

// The nodes that ran on a provider other than their target's first (--fallback warn), a line
// per target: how many, by op, and how many of them only compute shapes.
void WriteFallbacks(std::ostringstream& out, const RunRecord& run) {
  const auto by_target = FallbacksByTarget(run);
  if (by_target.empty()) return;
  out << "### Fallback\n\n";
  for (const auto& [target, summary] : by_target) {
    out << "- " << MarkdownCode(target) << ", " << summary.cases
        << " case(s): " << MarkdownCell(DescribeFallbacks(summary), 400) << "\n";
  }
  out << "\n";
}

// Side by side: the op versions where the targets disagree, a column per target.
void WriteDifferences(std::ostringstream& out, const RunRecord& run,
                      const MarkdownOptions& options) {
  const std::vector<std::string> targets = RunTargets(run);
  if (targets.size() < 2 || run.matrix.empty()) return;
  const std::vector<TargetDifference> rows = DifferingOpVersions(run, targets);
  out << "### Op versions where the results differ (" << rows.size() << ")\n\n";
  if (rows.empty()) {
    out << "Every op version has the same class of result on each of them.\n\n";
    return;
  }
  std::string header = "| Op version |", rule = "|---|";
  for (const std::string& target : targets) {
    header += " " + MarkdownCode(target) + " |";
    rule += "---|";
  }
  out << header << "\n" << rule << "\n";
  const size_t shown = std::min(rows.size(), options.max_matrix_ops);
  for (size_t i = 0; i < shown; ++i) {
    out << "| " << MarkdownCode(rows[i].op + " v" + std::to_string(rows[i].since_version)) << " |";
    for (const MatrixCell* cell : rows[i].cells) {
      out << " " << (cell == nullptr ? "no case" : FormatVerdictCounts(cell->counts)) << " |";
    }
    out << "\n";
  }
  if (rows.size() > shown) out << "\n... and " << rows.size() - shown << " more\n";
  out << "\n";
}

// Side by side: the cases whose outcome differs between the targets, a verdict per target.
void WriteDifferingCases(std::ostringstream& out, const RunRecord& run,
                         const MarkdownOptions& options) {
  const std::vector<std::string> targets = RunTargets(run);
  if (targets.size() < 2) return;
  const std::vector<CaseAcrossTargets> rows = CasesDifferingAcrossTargets(run, targets);
  out << "### Cases where the results differ (" << rows.size() << ")\n\n";
  if (rows.empty()) {
    out << "Every case has the same outcome on each of them.\n\n";
    return;
  }
  std::string header = "| Case |", rule = "|---|";
  for (const std::string& target : targets) {
    header += " " + MarkdownCode(target) + " |";
    rule += "---|";
  }
  out << header << "\n" << rule << "\n";
  const size_t shown = std::min(rows.size(), options.max_cases);
  for (size_t i = 0; i < shown; ++i) {
    out << "| " << MarkdownCode(rows[i].suite + "/" + rows[i].name) << " |";
    for (const CaseRecord* r : rows[i].records) {
      out << " " << (r == nullptr ? "no case" : VerdictToString(r->verdict)) << " |";
    }
    out << "\n";
  }
  if (rows.size() > shown) out << "\n... and " << rows.size() - shown << " more\n";
  out << "\n";
}

// Ops with a failing cell first, then those with only unsupported or expected failures; the
// ops whose every case passed are only counted.
void WriteMatrix(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  if (run.matrix.empty()) return;
  const std::vector<MatrixRow> all_rows = MatrixRows(run.matrix);
  std::vector<const MatrixRow*> rows;
  size_t all_passing = 0;
  for (const MatrixRow& row : all_rows) {
    if (row.cell_class == CellClass::kPassing) {
      ++all_passing;
    } else {
      rows.push_back(&row);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const MatrixRow* a, const MatrixRow* b) {
    return (a->cell_class == CellClass::kFailing) > (b->cell_class == CellClass::kFailing);
  });
  out << "### Conformance matrix (" << all_rows.size() << " ops)\n\n";
  const size_t shown = std::min(rows.size(), options.max_matrix_ops);
  if (shown > 0) {
    out << "| Op | Op version, EP: cases by verdict |\n|---|---|\n";
    for (size_t i = 0; i < shown; ++i) {
      std::vector<std::string> cells;
      for (const MatrixCell* cell : rows[i]->cells) cells.push_back(FormatMatrixCell(*cell));
      out << "| " << MarkdownCode(rows[i]->op) << " | "
          << MarkdownCell(JoinStrings(cells, " · "), options.max_matrix_row_chars) << " |\n";
    }
    out << "\n";
  }
  if (rows.size() > shown) {
    out << "... and " << rows.size() - shown << " more ops not all passing\n\n";
  }
  out << all_passing << (all_passing == 1 ? " op" : " ops") << " all passing\n\n";
}

void WriteCoverage(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  if (run.coverage.empty()) return;
  const CoverageTotals totals = SumCoverage(run.coverage);
  out << "**Coverage:** " << FormatCoverageLine(totals) << "\n\n";
  if (totals.uncovered_ops.empty()) return;
  const size_t shown = std::min(totals.uncovered_ops.size(), options.max_uncovered_ops);
  std::vector<std::string> names;
  for (size_t i = 0; i < shown; ++i) names.push_back(MarkdownCode(totals.uncovered_ops[i]));
  out << "Operators with no case (" << totals.uncovered_ops.size()
      << "): " << JoinStrings(names, ", ");
  if (totals.uncovered_ops.size() > shown) {
    out << " ... and " << totals.uncovered_ops.size() - shown << " more";
  }
  out << "\n\n";
}

// The metric thresholds (suite.json "metrics") of the first `shown` rows, a line per output.
void WriteCaseMetrics(std::ostringstream& out, const std::vector<const CaseRecord*>& rows,
                      size_t shown) {
  std::string lines;
  for (size_t i = 0; i < shown; ++i) {
    for (const OutputComparison& o : rows[i]->outputs) {
      if (o.metrics.empty()) continue;
      lines += "- " + MarkdownCode(rows[i]->name) + " " + MarkdownCode(TargetName(*rows[i])) + " " +
               MarkdownCode(o.output_name) + " set " + std::to_string(o.set_index) + ": " +
               MarkdownCell(DescribeOutputMargin(o), 400) + "\n";
    }
  }
  if (!lines.empty()) out << "Metrics:\n\n" << lines << "\n";
}

void WriteCases(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  std::vector<const CaseRecord*> rows;
  for (const CaseRecord& c : run.cases) {
    if (c.verdict != Verdict::kPass) rows.push_back(&c);
  }
  if (rows.empty()) return;
  std::stable_sort(rows.begin(), rows.end(), [](const CaseRecord* a, const CaseRecord* b) {
    return Severity(a->verdict) < Severity(b->verdict);
  });
  const size_t shown = std::min(rows.size(), options.max_cases);

  out << "### Not passing (" << rows.size() << ")\n\n";
  out << "| Case | EP | Verdict | Message |\n|---|---|---|---|\n";
  for (size_t i = 0; i < shown; ++i) {
    const CaseRecord& c = *rows[i];
    out << "| " << MarkdownCode(c.name) << " | " << MarkdownCode(TargetName(c)) << " | **"
        << VerdictToString(c.verdict) << "** | "
        << MarkdownCell(Summary(c), options.max_message_chars) << " |\n";
  }
  if (rows.size() > shown) {
    out << "\n... and " << rows.size() - shown << " more (see the JSON report)\n";
  }
  out << "\n";
  WriteCaseMetrics(out, rows, shown);

  // SKIP never ran, so there is nothing to reproduce.
  std::string commands;
  for (size_t i = 0; i < shown; ++i) {
    const CaseRecord& c = *rows[i];
    if (c.reproducer.empty() || c.verdict == Verdict::kSkip) continue;
    commands += "# " + OneLine(SanitizeForXml(CaseDisplayName(c)), 200) + " " +
                VerdictToString(c.verdict) + "\n" + OneLine(SanitizeForXml(c.reproducer), 2000) +
                "\n";
  }
  if (!commands.empty()) {
    const std::string fence = Fence(commands);
    out << "Reproduce:\n\n" << fence << "sh\n" << commands << fence << "\n\n";
  }
}

// A run of models: every case in one table, so the reader sees each model's verdict and how
// close each output came to its tolerance first.
void WriteModels(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  out << "### Models (" << run.cases.size() << ")\n\n";
  out << "| Case | EP | Verdict | Margin to tolerance, per output |\n|---|---|---|---|\n";
  const size_t shown = std::min(run.cases.size(), options.max_cases);
  for (size_t i = 0; i < shown; ++i) {
    const CaseRecord& c = run.cases[i];
    const std::vector<std::string> margins = DescribeOutputMargins(c);
    out << "| " << MarkdownCode(c.name) << " | " << MarkdownCode(TargetName(c)) << " | "
        << (c.verdict == Verdict::kPass ? std::string(VerdictToString(c.verdict))
                                        : "**" + std::string(VerdictToString(c.verdict)) + "**")
        << " | "
        << MarkdownCell(margins.empty() ? Summary(c) : JoinStrings(margins, "; "),
                        options.max_margin_chars)
        << " |\n";
  }
  if (run.cases.size() > shown) {
    out << "\n... and " << run.cases.size() - shown << " more (see the JSON report)\n";
  }
  out << "\n";
}

// The node each failing model first departs from its golden at (a golden recorded with the
// intermediate values); nothing when no case has one.
void WriteFailingNodes(std::ostringstream& out, const RunRecord& run,
                       const MarkdownOptions& options) {
  std::vector<const CaseRecord*> rows;
  for (const CaseRecord& c : run.cases) {
    if (c.first_divergence && IsFailingVerdict(c.verdict)) rows.push_back(&c);
  }
  if (rows.empty()) return;
  out << "### Failing nodes (" << rows.size() << ")\n\n";
  const size_t shown = std::min(rows.size(), options.max_cases);
  for (size_t i = 0; i < shown; ++i) {
    out << "- " << MarkdownCode(rows[i]->name) << " " << MarkdownCode(TargetName(*rows[i])) << ": "
        << MarkdownCell(DescribeDivergence(*rows[i]->first_divergence), 400) << "\n";
  }
  if (rows.size() > shown) out << "- ... and " << rows.size() - shown << " more\n";
  out << "\n";
}

// Right under the header: an interrupted run's tables hold only what finished, so the reader
// must see that before the numbers, and which selected cases never ran.
void WriteRunStatus(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  if (run.status != RunStatus::kInterrupted) return;
  out << "> **Run interrupted:** " << MarkdownCell(run.status_message, 400) << "\n\n";
  if (run.not_run.empty()) return;
  out << "Not run (" << run.not_run.size() << "):\n\n";
  const size_t shown = std::min(run.not_run.size(), options.max_cases);
  for (size_t i = 0; i < shown; ++i) {
    const NotRunRecord& r = run.not_run[i];
    out << "- " << MarkdownCode(r.suite + "/" + r.name) << " " << MarkdownCode(TargetName(r))
        << ": " << MarkdownCell(r.reason, options.max_message_chars) << "\n";
  }
  if (run.not_run.size() > shown) {
    out << "- ... and " << run.not_run.size() - shown << " more (see the JSON report)\n";
  }
  out << "\n";
}

// One line per record under the latency table, "- **<label>** `name`: <text of the record>",
// at most options.max_latency_alerts of them. The message already holds the medians and the
// change, so it is written alone, once; a line is not a table cell and may run longer than one.
constexpr size_t kMaxLatencyLineChars = 400;
template <typename TextOf>
void WriteLatencyLines(std::ostringstream& out, const char* label,
                       const std::vector<const LatencyRecord*>& records,
                       const MarkdownOptions& options, TextOf text_of) {
  const size_t shown = std::min(records.size(), options.max_latency_alerts);
  for (size_t i = 0; i < shown; ++i) {
    const LatencyRecord& r = *records[i];
    out << "- **" << label << "** " << MarkdownCode(LatencyDisplayName(r)) << ": "
        << MarkdownCell(text_of(r), kMaxLatencyLineChars) << "\n";
  }
  if (records.size() > shown) out << "- ... and " << records.size() - shown << " more\n";
}

// A line per measurement whose nodes fell back from its EP's first provider.
void WriteLatencyFallbacks(std::ostringstream& out, const RunRecord& run,
                           const MarkdownOptions& options) {
  size_t shown = 0;
  for (const LatencyRecord& r : run.latency) {
    if (r.fallback.empty() || shown == options.max_latency_alerts) continue;
    out << "- fallback " << MarkdownCode(LatencyDisplayName(r)) << ": "
        << MarkdownCell(r.fallback, options.max_message_chars) << "\n";
    ++shown;
  }
  if (shown > 0) out << "\n";
}

void WriteLatency(std::ostringstream& out, const RunRecord& run, const MarkdownOptions& options) {
  if (run.latency.empty()) return;
  int counts[6] = {};
  std::vector<const LatencyRecord*> alerts;
  std::vector<const LatencyRecord*> errors;
  std::vector<const LatencyRecord*> noisy;
  for (const LatencyRecord& r : run.latency) {
    ++counts[static_cast<int>(r.verdict)];
    if (r.verdict == LatencyVerdict::kRegression) alerts.push_back(&r);
    if (r.verdict == LatencyVerdict::kError) errors.push_back(&r);
    if (!r.noise.empty()) noisy.push_back(&r);
  }
  out << "### Latency (" << run.latency.size() << " measured)\n\n";
  std::vector<std::string> parts;
  for (LatencyVerdict v :
       {LatencyVerdict::kRegression, LatencyVerdict::kImprovement, LatencyVerdict::kUnchanged,
        LatencyVerdict::kInconclusive, LatencyVerdict::kNoBaseline, LatencyVerdict::kError}) {
    const int n = counts[static_cast<int>(v)];
    if (n > 0) parts.push_back(std::to_string(n) + " " + LatencyVerdictToString(v));
  }
  if (!noisy.empty()) parts.push_back(std::to_string(noisy.size()) + " unreliable");
  out << JoinStrings(parts, ", ") << "\n\n";
  if (const std::string timing = FormatLatencyTiming(run.latency); !timing.empty()) {
    out << timing << "\n\n";
  }
  // One row per measurement, so a reader sees every model's median and where it stands against
  // its baseline, not only the alerts.
  out << "| Model | EP | Threads | Median | vs baseline | Verdict |\n"
         "| --- | --- | ---: | ---: | ---: | --- |\n";
  const size_t rows = std::min(run.latency.size(), options.max_latency_alerts);
  for (size_t i = 0; i < rows; ++i) {
    const LatencyRecord& r = run.latency[i];
    std::string change = "n/a";
    if (r.baseline_median_ms) {
      change = (r.change_ratio ? FormatChange(*r.change_ratio) : std::string("?")) + " (" +
               FormatNumber(*r.baseline_median_ms) + " ms)";
    }
    const char* verdict = LatencyVerdictToString(r.verdict);
    out << "| " << MarkdownCode(LatencyModelShapes(r)) << " | " << MarkdownCode(TargetName(r))
        << " | " << r.threads << " | "
        << (r.verdict == LatencyVerdict::kError ? std::string("–")
                                                : FormatNumber(r.median_ms) + " ms")
        << " | " << change << " | "
        << (r.verdict == LatencyVerdict::kRegression || r.verdict == LatencyVerdict::kError
                ? "**" + std::string(verdict) + "**"
                : std::string(verdict))
        << (r.noise.empty() ? "" : " (unreliable)") << " |\n";
  }
  if (run.latency.size() > rows) {
    out << "\n... and " << run.latency.size() - rows << " more (see the JSON report)\n";
  }
  out << "\n";
  WriteLatencyLines(out, "regression", alerts, options, [](const LatencyRecord& r) {
    return r.message.empty() ? FormatLatencySummary(r) : r.message;
  });
  WriteLatencyLines(out, "unreliable", noisy, options,
                    [](const LatencyRecord& r) { return r.noise; });
  WriteLatencyLines(out, "error", errors, options,
                    [](const LatencyRecord& r) { return r.message; });
  WriteLatencyFallbacks(out, run, options);
}

}  // namespace

std::string RenderMarkdown(const RunRecord& run, const MarkdownOptions& options) {
  std::ostringstream out;
  WriteHeader(out, run, options);
  WriteRunStatus(out, run, options);
  if (IsLatencyOnly(run)) {
    WriteLatency(out, run, options);
    return out.str();
  }
  WriteTotals(out, run);
  WriteFallbacks(out, run);
  if (IsModelRun(run)) {
    // Models: their margins, failing nodes and failures first, the op matrix at the end, and no
    // ONNX operator coverage (it says nothing about users' models).
    WriteModels(out, run, options);
    WriteFailingNodes(out, run, options);
    WriteCases(out, run, options);
    WriteDifferences(out, run, options);
    WriteDifferingCases(out, run, options);
    WriteLatency(out, run, options);
    WriteMatrix(out, run, options);
    return out.str();
  }
  WriteDifferences(out, run, options);
  WriteDifferingCases(out, run, options);
  WriteMatrix(out, run, options);
  WriteCoverage(out, run, options);
  WriteCases(out, run, options);
  WriteLatency(out, run, options);
  return out.str();
}

Status WriteMarkdown(const RunRecord& run, const std::string& path,
                     const MarkdownOptions& options) {
  Status st = WriteFileAtomically(path, RenderMarkdown(run, options));
  if (!st.ok()) return st.WithContext("writing Markdown summary " + path);
  return OkStatus();
}

}  // namespace onnxgate
