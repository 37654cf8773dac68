// PublishRun: report writers, the console summary and the exit code of run/gate.
#include "harness/run_publish.h"

#include <cstdio>
#include <map>
#include <string>

#include "conformance/expectations.h"
#include "harness/console_colour.h"
#include "harness/report_diff.h"
#include "reports/format.h"
#include "reports/matrix_summary.h"
#include "reports/model_summary.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUnexpected = 1;
constexpr int kExitUsage = 2;
constexpr size_t kMaxFailingCellsShown = 20;

// A cell whose only failing verdicts are XPASS: better than the expectations say.
bool OnlyImproved(const VerdictCounts& counts) {
  if (counts[Verdict::kXpass] == 0) return false;
  for (Verdict v : kAllVerdicts) {
    if (v != Verdict::kXpass && IsFailingVerdict(v) && counts[v] > 0) return false;
  }
  return true;
}

// run/gate --history: the run appended after its reports, unless it was interrupted (its cases
// are part of the selection); false after printing why it could not be.
bool AppendToHistory(const RunCommandOptions& o, const RunRecord& run) {
  if (o.history.database.empty()) return true;
  if (run.status == RunStatus::kInterrupted) {
    std::fprintf(stderr, "onnxgate: the interrupted run is not recorded in the history\n");
    return true;
  }
  StatusOr<HistoryAppended> appended =
      AppendRunToHistory(o.history, HistoryFromRun(run, o.history));
  if (!appended.ok()) {
    std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(appended.status().message()).c_str());
    return false;
  }
  if (!o.quiet) {
    std::printf("history: run %lld appended to %s\n", static_cast<long long>(appended->run_id),
                EscapeForTerminal(appended->database).c_str());
  }
  return true;
}

void PrintCells(const char* what, const std::vector<std::string>& cells) {
  for (size_t i = 0; i < cells.size() && i < kMaxFailingCellsShown; ++i)
    std::printf("  %s: %s\n", what, cells[i].c_str());
  if (cells.size() > kMaxFailingCellsShown) {
    std::printf("  ... and %zu more %s cells\n", cells.size() - kMaxFailingCellsShown, what);
  }
}

// The matrix in a few lines: op versions per cell class, the ops with failing cells, and with
// `coverage` the ONNX operator coverage. When an XPASS does not fail the gate (--no-strict),
// cells failing by XPASS alone are listed as improved, not failing.
void PrintMatrixSummary(const RunRecord& run, bool xpass_fails, bool coverage) {
  if (run.matrix.empty()) return;
  std::map<CellClass, int> classes;
  std::vector<std::string> failing, improved;
  for (const MatrixCell& cell : run.matrix) {
    CellClass c = ClassifyCounts(cell.counts);
    if (c != CellClass::kFailing) {
      ++classes[c];
      continue;
    }
    std::string line = EscapeForTerminal(FormatMatrixCell(cell).insert(0, cell.op + " "));
    const bool is_improved = !xpass_fails && OnlyImproved(cell.counts);
    if (!is_improved) ++classes[c];
    (is_improved ? improved : failing).push_back(std::move(line));
  }
  std::printf("Conformance matrix: %zu op version x %s cells:", run.matrix.size(),
              run.runtimes.size() > 1 ? "runtime/EP" : "EP");
  for (const auto& [c, n] : classes) {
    std::printf(" %d %s", n, CellClassName(c));
    if (c == CellClass::kFailing && !improved.empty())
      std::printf(" %zu improved", improved.size());
  }
  if (classes.count(CellClass::kFailing) == 0 && !improved.empty()) {
    std::printf(" %zu improved", improved.size());
  }
  std::printf("\n");
  PrintCells("failing", failing);
  PrintCells("improved", improved);
  if (coverage && !run.coverage.empty())
    std::printf("%s\n", FormatCoverageLine(SumCoverage(run.coverage)).c_str());
}

// Why a failing model failed, in a few words: the node it first departs from its golden at,
// else its first failing output's margin, else its message.
std::string FailingModelReason(const CaseRecord& c) {
  if (c.first_divergence) return "first diverges at " + DescribeDivergence(*c.first_divergence);
  for (const OutputComparison& o : c.outputs) {
    if (!o.passed) {
      return o.output_name + " set " + std::to_string(o.set_index) + ": " + DescribeOutputMargin(o);
    }
  }
  return c.message;
}

// A run of models: a line per failing model.
void PrintFailingModels(const RunRecord& run, bool colour) {
  std::vector<const CaseRecord*> failing;
  for (const CaseRecord& c : run.cases) {
    if (IsFailingVerdict(c.verdict)) failing.push_back(&c);
  }
  if (failing.empty()) return;
  std::printf("Failing models (%zu):\n", failing.size());
  for (size_t i = 0; i < failing.size() && i < kMaxFailingCellsShown; ++i) {
    const CaseRecord& c = *failing[i];
    std::printf("  %s %s/%s [%s]: %s\n", VerdictWord(c.verdict, colour, 11).c_str(),
                EscapeForTerminal(c.suite).c_str(), EscapeForTerminal(c.name).c_str(),
                EscapeForTerminal(TargetName(c)).c_str(),
                EscapeForTerminal(OneLine(FailingModelReason(c), 300)).c_str());
  }
  if (failing.size() > kMaxFailingCellsShown) {
    std::printf("  ... and %zu more failing models\n", failing.size() - kMaxFailingCellsShown);
  }
}

// A gate's expectations file per runtime/EP, or that none was found.
void PrintGateExpectations(const GateRecord& gate) {
  std::printf("Expectations:\n");
  for (const GateExpectationsRecord& e : gate.expectations) {
    const std::string target = EscapeForTerminal(TargetName(e.runtime, e.ep));
    const std::string file = EscapeForTerminal(e.file);
    if (e.found) {
      std::printf("  %s: judged by %s (%lld %s)\n", target.c_str(), file.c_str(),
                  static_cast<long long>(e.entries), e.entries == 1 ? "entry" : "entries");
    } else {
      std::printf("  %s: no expectations file %s: every case must pass\n", target.c_str(),
                  file.c_str());
    }
  }
}

// Summary: counts per verdict, then the unexpected cases with their reproducers (a run of
// models shows them, and a line per failing model, before the operator matrix and leaves out the
// ONNX operator coverage; operator tests show the matrix and coverage first).
// The reproducer lines the console lists before pointing to the reports for the rest.
constexpr size_t kMaxReproducerLines = 50;

void PrintSummary(const RunRecord& run, const std::vector<const CaseRecord*>& unexpected,
                  bool xpass_fails, bool quiet) {
  const bool colour = ColourWanted(stdout);
  std::printf("\nSummary: %zu case(s) in %.1fs:", run.cases.size(), run.duration_s);
  for (Verdict v : kAllVerdicts) {
    if (run.totals[v] > 0) {
      std::printf(" %lld %s", static_cast<long long>(run.totals[v]),
                  VerdictWord(v, colour).c_str());
    }
  }
  std::printf("\n");
  for (const auto& [target, summary] : FallbacksByTarget(run)) {
    std::printf("Fallback on %s, %lld case(s): %s\n", EscapeForTerminal(target).c_str(),
                static_cast<long long>(summary.cases),
                EscapeForTerminal(DescribeFallbacks(summary)).c_str());
  }
  const bool models = IsModelRun(run);
  if (!models) PrintMatrixSummary(run, xpass_fails, /*coverage=*/true);
  if (!unexpected.empty() && quiet) {
    std::printf("%zu unexpected result(s): the reports list them\n", unexpected.size());
  } else if (!unexpected.empty()) {
    std::printf("%zu unexpected result(s); reproduce each alone with:\n", unexpected.size());
    for (size_t i = 0; i < unexpected.size() && i < kMaxReproducerLines; ++i) {
      const CaseRecord* r = unexpected[i];
      std::printf("  %s %s/%s [%s]\n    %s\n", VerdictWord(r->verdict, colour, 11).c_str(),
                  EscapeForTerminal(r->suite).c_str(), EscapeForTerminal(r->name).c_str(),
                  EscapeForTerminal(TargetName(*r)).c_str(),
                  EscapeForTerminal(r->reproducer).c_str());
    }
    if (unexpected.size() > kMaxReproducerLines) {
      std::printf("  ... and %zu more: the reports (--json, --junit, --html) list every one\n",
                  unexpected.size() - kMaxReproducerLines);
    }
  }
  if (models) {
    PrintFailingModels(run, colour);
    PrintMatrixSummary(run, xpass_fails, /*coverage=*/false);
  }
  if (run.gate) PrintGateExpectations(*run.gate);
}

}  // namespace

void PrintCaseLine(const CaseRecord& r, size_t done, size_t total) {
  // Names and messages come from models and kernels: escaped, so they cannot drive the terminal.
  std::printf("[%zu/%zu] %s %s/%s [%s] (%.2fs)%s%s\n", done, total,
              VerdictWord(r.verdict, ColourWanted(stdout), 11).c_str(),
              EscapeForTerminal(r.suite).c_str(), EscapeForTerminal(r.name).c_str(),
              EscapeForTerminal(TargetName(r)).c_str(), r.duration_s, r.message.empty() ? "" : ": ",
              EscapeForTerminal(r.message).c_str());
  if (!r.fallbacks.empty()) {
    std::printf("    fallback: %s\n",
                EscapeForTerminal(DescribeFallbacks(SummarizeFallbacks(r.fallbacks))).c_str());
  }
  std::fflush(stdout);
}

std::vector<ReportTarget> RunReportTargets(const RunCommandOptions& options) {
  std::vector<ReportTarget> targets;
  AddReportTarget(options.junit_path, NewJunitReportWriter(options.junit_schema), &targets);
  AddReportTarget(options.json_path, NewJsonReportWriter(), &targets);
  AddReportTarget(options.html_path, NewHtmlReportWriter(), &targets);
  AddReportTarget(options.markdown_path, NewMarkdownReportWriter(), &targets);
  return targets;
}

bool WriteReports(const RunCommandOptions& options, const RunRecord& run) {
  bool all_written = true;
  for (const ReportTarget& target : RunReportTargets(options)) {
    if (Status st = target.writer->Write(run, target.path); !st.ok()) {
      std::fprintf(stderr, "onnxgate: writing report %s failed: %s\n",
                   EscapeForTerminal(target.path).c_str(), EscapeForTerminal(st.message()).c_str());
      all_written = false;
    }
  }
  return all_written;
}

int PublishRun(const RunPlan& plan, const RunRecord& run) {
  const bool reports_written = WriteReports(plan.options, run);
  const bool recorded = AppendToHistory(plan.options, run);
  std::vector<const CaseRecord*> unexpected;
  for (const CaseRecord& r : run.cases) {
    if (IsUnexpected(r, plan.options.strict)) unexpected.push_back(&r);
  }
  PrintSummary(run, unexpected, plan.options.strict || !plan.options.apply_expectations,
               plan.options.quiet);
  // Every selected case x EP is either judged or listed as not run; anything else would make
  // the reports undercount the selection.
  if (run.cases.size() + run.not_run.size() != plan.requests.size()) {
    std::fprintf(stderr, "onnxgate: internal error: %zu finished + %zu not run != %zu selected\n",
                 run.cases.size(), run.not_run.size(), plan.requests.size());
    return kExitUsage;
  }
  if (run.status == RunStatus::kInterrupted) {
    // Exit 2, not 1: the run says nothing about the runtime's results as a whole, and not 0:
    // the reports list the unrun cases as errors, so a CI job must not pass.
    const std::string result = "Result: INTERRUPTED (" + run.status_message + ")";
    std::printf("%zu case(s) x EP not run\n%s\n", run.not_run.size(),
                Coloured(result, Colour::kRed, ColourWanted(stdout)).c_str());
    std::fprintf(stderr, "onnxgate: %s; reports hold what finished and list the rest as not run\n",
                 run.status_message.c_str());
    return kExitUsage;
  }
  if (!reports_written || !recorded) return kExitUsage;
  size_t worse = 0;
  if (plan.release) {
    const ReportDiff diff = DiffReports(*plan.release, run);
    worse = diff.Count(VerdictChange::kWorse);
    std::printf("Against %s: %s", EscapeForTerminal(plan.options.against_report).c_str(),
                RenderReportDiffText(diff, 50).c_str());
  }
  const bool met = unexpected.empty() && worse == 0;
  std::printf("%s\n", Coloured(met ? "Result: all expectations met" : "Result: FAILED",
                               met ? Colour::kGreen : Colour::kRed, ColourWanted(stdout))
                          .c_str());
  return met ? kExitOk : kExitUnexpected;
}

}  // namespace onnxgate
