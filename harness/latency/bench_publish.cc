// The bench's console output and its reports.
#include "harness/latency/bench_publish.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <utility>

#include "harness/latency/bench_judge.h"
#include "harness/latency/bench_table.h"
#include "harness/latency/gbench_json.h"
#include "reports/format.h"
#include "reports/json_writer.h"
#include "reports/report_writer.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

// The run report with Google Benchmark's "context" and "benchmarks" beside onnxgate's keys, so
// that one file serves onnxgate's readers (which ignore unknown keys) and Google Benchmark's
// tools (which ignore onnxgate's).
class BenchJsonWriter : public ReportWriter {
 public:
  BenchJsonWriter(std::string executable, const std::vector<BenchMeasurement>& measured,
                  BenchClock clock)
      : executable_(std::move(executable)), measured_(measured), clock_(clock) {}
  Status Write(const RunRecord& run, const std::string& path) const override {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(RenderRunJson(run));
    nlohmann::ordered_json gbench =
        RenderGbenchJson(CurrentGbenchContext(executable_), measured_, clock_);
    j["context"] = std::move(gbench["context"]);
    j["benchmarks"] = std::move(gbench["benchmarks"]);
    return WriteFileAtomically(path, j.dump(2) + "\n");
  }

 private:
  std::string executable_;
  const std::vector<BenchMeasurement>& measured_;
  BenchClock clock_;
};

// A verdict the spread of the samples makes unreliable, said on a line of its own.
void PrintNoise(const BenchCommandOptions& o, const LatencyRecord& r) {
  if (r.noise.empty()) return;
  std::fprintf(o.out, "unreliable %s: %s\n", EscapeForTerminal(LatencyDisplayName(r)).c_str(),
               EscapeForTerminal(r.noise).c_str());
}

// Below the table: where nodes fell back (--fallback warn; the reports say it under allow too),
// and why a combination was not measured.
void PrintFallbacksAndErrors(const BenchCommandOptions& o, const RunRecord& run) {
  for (const LatencyRecord& r : run.latency) {
    if (o.settings.fallback == FallbackPolicy::kWarn && !r.fallback.empty()) {
      std::fprintf(o.out, "warning: fallback %s: %s\n",
                   EscapeForTerminal(LatencyDisplayName(r)).c_str(),
                   EscapeForTerminal(r.fallback).c_str());
    }
  }
  for (const LatencyRecord& r : run.latency) {
    if (r.verdict == LatencyVerdict::kError) {
      std::fprintf(o.out, "error %s: %s\n", EscapeForTerminal(LatencyDisplayName(r)).c_str(),
                   EscapeForTerminal(r.message).c_str());
    }
  }
}

}  // namespace

void PrintBenchHeader(const BenchCommandOptions& o, const MachineFingerprint& fp,
                      const std::vector<BenchModel>& models, const char* slowed_runs) {
  const BenchSettings& s = o.settings;
  size_t shaped = 0;
  for (const BenchModel& m : models) shaped += m.shapes.size();
  const std::string with_shapes =
      shaped == models.size() ? "" : " (" + std::to_string(shaped) + " with their shapes)";
  std::fprintf(o.out,
               "machine %s (%s)\n%zu model(s)%s x %zu EP(s) x %zu thread count(s); %s clock, "
               "warm-up %.2g s, %d repetitions of >= %.2g s each, %d round%s\n",
               fp.Id().c_str(), fp.Describe().c_str(), models.size(), with_shapes.c_str(),
               o.eps.size(), o.threads.size(), BenchClockName(s.clock), s.warmup_s, s.repetitions,
               s.min_time_s, o.rounds, o.rounds == 1 ? "" : "s");
  if (s.optimization_level != 0) {
    std::fprintf(o.out, "models loaded at graph optimization level %d\n", s.optimization_level);
  }
  if (s.extra_work_percent > 0.0) {
    std::fprintf(o.out, "TEST-ONLY: adding %.3g%% extra busy work to %s\n", s.extra_work_percent,
                 slowed_runs);
  }
}

void PrintBenchResults(const BenchCommandOptions& o, const RunRecord& run,
                       const BenchBaselines& baselines, int regressions) {
  std::fprintf(o.out, "\n%s", RenderBenchTable(run.latency, o.compare).c_str());
  PrintFallbacksAndErrors(o, run);
  if (o.compare) {
    bool missing = false;
    for (const auto& [ep, file] : baselines.files) {
      if (!file) {
        missing = true;
        std::fprintf(o.out,
                     "no latency baseline for this machine on %s: %s does not exist; nothing "
                     "compared (record one with `onnxgate baseline update`)\n",
                     ep.c_str(), baselines.paths.at(ep).c_str());
      }
    }
    int new_configurations = 0;
    for (const LatencyRecord& r : run.latency) {
      if (r.verdict == LatencyVerdict::kNoBaseline) ++new_configurations;
      // Every verdict but UNCHANGED, and an unchanged model whose file changed.
      const bool model_changed = r.message.rfind(kModelChangedPrefix, 0) == 0;
      if (r.verdict == LatencyVerdict::kRegression || r.verdict == LatencyVerdict::kImprovement ||
          r.verdict == LatencyVerdict::kInconclusive || model_changed ||
          (r.verdict == LatencyVerdict::kNoBaseline && !missing)) {
        std::fprintf(o.out, "%s %s: %s\n", LatencyVerdictToString(r.verdict),
                     EscapeForTerminal(LatencyDisplayName(r)).c_str(),
                     EscapeForTerminal(r.message).c_str());
      }
      PrintNoise(o, r);
    }
    std::fprintf(o.out, "%d latency regression(s)\n", regressions);
    if (new_configurations > 0) {
      std::fprintf(o.out, "%d new configuration(s), never measured on this machine%s\n",
                   new_configurations, o.fail_on_new ? " (--fail-on-new: a failure)" : "");
    }
  }
  std::fprintf(o.out, "bench wall time %.1f s\n", run.duration_s);
}

void PrintAgainstResults(const BenchCommandOptions& o, const RunRecord& run,
                         const std::vector<std::string>& labels, int regressions) {
  std::fprintf(o.out, "\n%s", RenderBenchTable(run.latency, true).c_str());
  PrintFallbacksAndErrors(o, run);
  for (const LatencyRecord& r : run.latency) {
    if (r.verdict != LatencyVerdict::kUnchanged && r.verdict != LatencyVerdict::kError) {
      std::fprintf(o.out, "%s %s: %s\n", LatencyVerdictToString(r.verdict),
                   EscapeForTerminal(LatencyDisplayName(r)).c_str(),
                   EscapeForTerminal(r.message).c_str());
    }
    PrintNoise(o, r);
  }
  std::fprintf(o.out, "%d latency regression(s) of %s against %s\n", regressions, labels[0].c_str(),
               labels[1].c_str());
  std::fprintf(o.out, "bench wall time %.1f s\n", run.duration_s);
}

Status WriteBenchReports(const BenchCommandOptions& o, const RunRecord& run,
                         const std::vector<BenchMeasurement>& measured) {
  const std::string executable = o.command_line.empty() ? "onnxgate" : o.command_line[0];
  MarkdownOptions md;
  md.title = "onnxgate bench";
  HtmlOptions html;
  html.title = "onnxgate bench";
  std::vector<ReportTarget> targets;
  AddReportTarget(o.json_path,
                  std::make_unique<BenchJsonWriter>(executable, measured, o.settings.clock),
                  &targets);
  AddReportTarget(o.junit_path, NewJunitReportWriter(o.junit_schema), &targets);
  AddReportTarget(o.markdown_path, NewMarkdownReportWriter(md), &targets);
  AddReportTarget(o.html_path, NewHtmlReportWriter(html), &targets);
  for (const ReportTarget& target : targets) {
    ONNXGATE_RETURN_IF_ERROR(target.writer->Write(run, target.path));
  }
  return OkStatus();
}

}  // namespace onnxgate
