// `onnxgate bench` and `onnxgate baseline update`, each in four stages: plan (options, models,
// thresholds, baselines), measure, judge (against baselines, a reference runtime, or into new
// baseline entries) and publish (table, verdict lines, reports).
#include "harness/latency/bench_command.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "harness/ep_target.h"
#include "harness/latency/baseline.h"
#include "harness/latency/bench_judge.h"
#include "harness/latency/bench_measure.h"
#include "harness/latency/bench_plan.h"
#include "harness/latency/bench_publish.h"
#include "harness/latency/bench_table.h"
#include "harness/latency/fingerprint.h"
#include "reports/format.h"
#include "reports/text_escape.h"
#include "runtime/base/utc_time.h"

namespace onnxgate {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRegression = 1;
constexpr int kExitUsage = 2;

int Fail(const BenchCommandOptions& o, const char* command, const Status& st) {
  std::fprintf(o.err, "onnxgate %s: %s\n", command, st.message().c_str());
  return kExitUsage;
}

void FinishRecord(RunRecord* run) {
  run->end_time = std::chrono::system_clock::now();
  run->duration_s = std::chrono::duration<double>(run->end_time - run->start_time).count();
}

// The baseline files `baseline update` writes to, read (and vetted) first, so that a refused
// file costs no measuring time: an existing file must belong to this machine, runtime, clock and
// optimization level; a missing one starts empty.
Status ReadBaselinesToUpdate(const BenchCommandOptions& o, const MachineFingerprint& fp,
                             const RuntimeUnderTest& runtime,
                             std::map<std::string, std::string>* paths,
                             std::map<std::string, BaselineFile>* files) {
  const std::string clock = BenchClockName(o.settings.clock);
  for (const std::string& ep : o.eps) {
    ONNXGATE_ASSIGN_OR_RETURN(const std::string path, BaselineFilePath(o, fp, ep));
    (*paths)[ep] = path;
    auto existing = ReadBaseline(path);
    if (existing.ok()) {
      ONNXGATE_RETURN_IF_ERROR(CheckBaselineApplies(*existing, path, fp, runtime.name(), ep, clock,
                                                    o.settings.optimization_level)
                                   .WithContext("not updating it (delete the file to start over)"));
      (*files)[ep] = std::move(existing).value();
    } else if (existing.status().code() == StatusCode::kNotFound) {
      BaselineFile fresh;
      fresh.fingerprint = fp;
      fresh.runtime = runtime.name();
      fresh.ep = ep;
      fresh.clock = clock;
      fresh.optimization_level = o.settings.optimization_level;
      (*files)[ep] = fresh;
    } else {
      return existing.status();
    }
  }
  return OkStatus();
}

// bench --history: the run appended after its reports, keyed by this machine, optimization level
// and clock.
Status AppendBenchHistory(const BenchCommandOptions& o, const MachineFingerprint& fp,
                          const RunRecord& run) {
  if (o.history.database.empty()) return OkStatus();
  HistoryTarget target = o.history;
  target.machine = fp.Id();
  target.optimization_level = o.settings.optimization_level;
  target.clock = BenchClockName(o.settings.clock);
  ONNXGATE_ASSIGN_OR_RETURN(const HistoryAppended appended,
                            AppendRunToHistory(target, HistoryFromRun(run, target)));
  std::fprintf(o.out, "history: run %lld appended to %s\n", static_cast<long long>(appended.run_id),
               appended.database.c_str());
  return OkStatus();
}

// Every provider of every --ep is one the runtime offers (harness/ep_target.h).
Status CheckTargetsOffered(const BenchCommandOptions& o, const RuntimeUnderTest& runtime) {
  for (const std::string& ep : o.eps) {
    ONNXGATE_ASSIGN_OR_RETURN(EpTarget target, ParseEpTarget(ep));
    ONNXGATE_RETURN_IF_ERROR(CheckTargetOffered(runtime, target));
  }
  return OkStatus();
}

// The options are valid and the runtime offers every target.
Status CheckBenchRequest(const BenchCommandOptions& o, const RuntimeUnderTest& runtime) {
  ONNXGATE_RETURN_IF_ERROR(ValidateBenchOptions(o));
  return CheckTargetsOffered(o, runtime);
}

// Whether the judgement fails the bench: a regression, and with --fail-on-new a configuration
// never measured before.
bool JudgementFails(const BenchCommandOptions& o, const BenchJudgement& judgement) {
  return judgement.regressions > 0 || (o.fail_on_new && judgement.new_configurations > 0);
}

// The models to measure and the shapes of each: a --dim no model has fails here, before anything
// is measured.
StatusOr<std::vector<BenchModel>> PlanModels(const BenchCommandOptions& o, TempDir* temp) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<BenchModel> models, ResolveBenchModels(o, temp));
  ONNXGATE_RETURN_IF_ERROR(PlanBenchShapes(o, &models));
  return models;
}

// After the reports are written: 2 when a combination could not be measured (each named on
// o.err), else 1 when the judgement failed (JudgementFails), else 0.
int ExitCode(const BenchCommandOptions& o, const char* command,
             const std::vector<LatencyRecord>& errors, bool judgement_failed) {
  for (const LatencyRecord& r : errors) {
    std::fprintf(o.err, "onnxgate %s: not measured: %s: %s\n", command,
                 EscapeForTerminal(LatencyDisplayName(r)).c_str(),
                 EscapeForTerminal(r.message).c_str());
  }
  if (!errors.empty()) {
    std::fprintf(o.err, "onnxgate %s: %zu measurement(s) could not be made; the others were\n",
                 command, errors.size());
    return kExitUsage;
  }
  return judgement_failed ? kExitRegression : kExitOk;
}

// The judged records, then the records of the combinations that could not be measured.
std::vector<LatencyRecord> AllRecords(BenchJudgement judgement, const BenchOutcome& outcome) {
  std::vector<LatencyRecord> records = std::move(judgement.records);
  records.insert(records.end(), outcome.errors.begin(), outcome.errors.end());
  return records;
}

}  // namespace

int RunBenchCommand(const BenchCommandOptions& o, const RuntimeUnderTest& runtime) {
  if (Status st = CheckBenchRequest(o, runtime); !st.ok()) return Fail(o, "bench", st);
  if (o.fail_on_new && !o.compare) {
    return Fail(o, "bench",
                InvalidArgument("--fail-on-new needs --compare: only a comparison with this "
                                "machine's baselines finds configurations never measured"));
  }
  const MachineFingerprint fp = CurrentMachineFingerprint();
  LatencyThresholds thresholds;
  BenchBaselines baselines;
  if (o.compare) {
    // Before measuring anything: a wrong baseline or thresholds file should fail in seconds.
    auto t = LoadBenchThresholds(o);
    if (!t.ok()) return Fail(o, "bench", t.status());
    thresholds = *t;
    auto b = LoadBenchBaselines(o, fp, runtime);
    if (!b.ok()) return Fail(o, "bench", b.status());
    baselines = std::move(b).value();
  }
  RunRecord run = StartBenchRecord(o, fp, runtime);
  TempDir temp;
  auto models = PlanModels(o, &temp);
  if (!models.ok()) return Fail(o, "bench", models.status());
  PrintBenchHeader(o, fp, *models);
  auto outcome = MeasureRuntime(o, runtime, *models);
  if (!outcome.ok()) return Fail(o, "bench", outcome.status());
  const std::vector<BenchMeasurement>& measured = outcome->sides[0];

  BenchJudgement judgement;
  if (o.compare) {
    judgement = JudgeAgainstBaselines(measured, baselines, thresholds);
  } else {
    for (const BenchMeasurement& m : measured) judgement.records.push_back(ToLatencyRecord(m));
  }
  const int regressions = judgement.regressions;
  const bool failed = JudgementFails(o, judgement);
  run.latency = AllRecords(std::move(judgement), *outcome);
  FinishRecord(&run);

  PrintBenchResults(o, run, baselines, regressions);
  if (Status st = WriteBenchReports(o, run, measured); !st.ok()) return Fail(o, "bench", st);
  if (Status st = AppendBenchHistory(o, fp, run); !st.ok()) return Fail(o, "bench", st);
  return ExitCode(o, "bench", outcome->errors, failed);
}

int RunBenchAgainstCommand(const BenchCommandOptions& o, const RuntimeUnderTest& candidate,
                           const RuntimeUnderTest& reference) {
  const char* command = "bench --against";
  if (Status st = CheckBenchRequest(o, candidate); !st.ok()) return Fail(o, command, st);
  if (o.compare || o.fail_on_new || !o.baseline_file.empty()) {
    return Fail(o, command,
                InvalidArgument("--against judges the runtime against another one measured "
                                "beside it; it takes no stored baseline (--compare, --baseline, "
                                "--fail-on-new)"));
  }
  const std::vector<std::string> offered = reference.providers();
  if (offered.empty()) {
    return Fail(o, command, InvalidArgument("runtime '" + reference.name() + "' offers no EP"));
  }
  const std::vector<std::string> labels = RuntimeLabels({&candidate, &reference});
  BenchSide candidate_side{&candidate, o.eps, labels[0]};
  BenchSide reference_side{&reference, {}, labels[1], /*extra_work=*/false};
  // The reference runs the same target where it offers every provider of it, else its first.
  for (const std::string& ep : o.eps) {
    const bool has = CheckTargetOffered(reference, *ParseEpTarget(ep)).ok();
    reference_side.eps.push_back(has ? ep : offered.front());
  }
  auto thresholds = LoadBenchThresholds(o);
  if (!thresholds.ok()) return Fail(o, command, thresholds.status());

  const MachineFingerprint fp = CurrentMachineFingerprint();
  RunRecord run = StartBenchRecord(o, fp, candidate);
  run.runtimes = {{labels[0], candidate.name(), candidate.version(), o.runtime_spec},
                  {labels[1], reference.name(), reference.version(), o.against_spec}};
  TempDir temp;
  auto models = PlanModels(o, &temp);
  if (!models.ok()) return Fail(o, command, models.status());
  PrintBenchHeader(o, fp, *models, "every run of the candidate");
  std::fprintf(o.out, "candidate %s against %s, measured in alternating turns\n", labels[0].c_str(),
               labels[1].c_str());
  auto outcome = MeasureSides(o, {candidate_side, reference_side}, *models);
  if (!outcome.ok()) return Fail(o, command, outcome.status());

  BenchJudgement judgement =
      JudgeAgainstReference(outcome->sides[0], outcome->sides[1], labels, *thresholds);
  const int regressions = judgement.regressions;
  run.latency = AllRecords(std::move(judgement), *outcome);
  FinishRecord(&run);

  PrintAgainstResults(o, run, labels, regressions);
  if (Status st = WriteBenchReports(o, run, outcome->sides[0]); !st.ok()) {
    return Fail(o, command, st);
  }
  if (Status st = AppendBenchHistory(o, fp, run); !st.ok()) return Fail(o, command, st);
  return ExitCode(o, command, outcome->errors, regressions > 0);
}

int RunBaselineUpdateCommand(const BenchCommandOptions& o, const RuntimeUnderTest& runtime) {
  const char* command = "baseline update";
  if (Status st = CheckBenchRequest(o, runtime); !st.ok()) return Fail(o, command, st);
  if (o.settings.extra_work_percent > 0.0) {
    return Fail(o, command,
                InvalidArgument("extra work is a test-only slowdown; a baseline must not "
                                "include it"));
  }
  const MachineFingerprint fp = CurrentMachineFingerprint();
  std::map<std::string, std::string> paths;
  std::map<std::string, BaselineFile> files;
  if (Status st = ReadBaselinesToUpdate(o, fp, runtime, &paths, &files); !st.ok()) {
    return Fail(o, command, st);
  }
  TempDir temp;
  auto models = PlanModels(o, &temp);
  if (!models.ok()) return Fail(o, command, models.status());
  PrintBenchHeader(o, fp, *models);
  auto outcome = MeasureRuntime(o, runtime, *models);
  if (!outcome.ok()) return Fail(o, command, outcome.status());
  const std::vector<BenchMeasurement>& measured = outcome->sides[0];

  const std::string now = UtcNowIso8601();
  std::vector<LatencyRecord> records;
  for (const BenchMeasurement& m : measured) records.push_back(ToLatencyRecord(m));
  records.insert(records.end(), outcome->errors.begin(), outcome->errors.end());
  std::map<std::string, std::vector<BaselineEntry>> fresh = ToBaselineEntries(measured, now);

  std::fprintf(o.out, "\n%s", RenderBenchTable(records, false).c_str());
  for (auto& [ep, file] : files) {
    file.tool_version = o.tool_version;
    file.updated = now;
    // Read again, merged and written under the folder's lock: a concurrent update keeps its
    // entries.
    StatusOr<BaselineFile> written = UpdateBaselineFile(paths[ep], file, fresh[ep]);
    if (!written.ok()) return Fail(o, command, written.status());
    std::fprintf(o.out, "wrote %zu new entr%s to %s (%zu in the file)\n", fresh[ep].size(),
                 fresh[ep].size() == 1 ? "y" : "ies", paths[ep].c_str(), written->entries.size());
  }
  return ExitCode(o, command, outcome->errors, false);
}

}  // namespace onnxgate
