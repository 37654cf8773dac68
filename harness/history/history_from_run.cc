// RunRecord -> HistoryRun, the commit and branch from the environment, and the append.
#include "harness/history/history_from_run.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utility>

#include "harness/history/results_store.h"
#include "reports/format.h"
#include "reports/model_summary.h"

namespace onnxgate {

namespace {

constexpr char kUnknown[] = "unknown";

// The flag, else the first variable of `names` that is set and not empty, else "unknown".
std::string FirstSet(const std::string& flag, std::initializer_list<const char*> names,
                     const EnvLookup& env) {
  if (!flag.empty()) return flag;
  for (const char* name : names) {
    const char* value = env(name);
    if (value != nullptr && *value != '\0') return value;
  }
  return kUnknown;
}

HistoryContext ContextOf(const RunRecord& run, const HistoryTarget& target) {
  HistoryContext c;
  c.kind = IsLatencyOnly(run) ? "bench" : "gate";
  c.commit = target.commit;
  c.branch = target.branch;
  c.tool_version = run.tool_version;
  c.runtime = run.runtime_name;
  c.runtime_version = run.runtime_version;
  c.machine = target.machine;
  c.recorded = FormatJunitTimestamp(run.start_time) + "Z";  // whole seconds, UTC
  return c;
}

LatencyPoint LatencyPointOf(const RunRecord& run, const LatencyRecord& r,
                            const HistoryTarget& target) {
  LatencyPoint p;
  p.key.model = r.model;
  p.key.runtime = r.runtime.empty() ? run.runtime_name : r.runtime;
  p.key.ep = r.ep;
  p.key.threads = r.threads;
  p.key.shapes = r.shapes;
  p.key.optimization_level = target.optimization_level;
  // A runtime that timed its own runs measured without the harness's side of the call: another
  // series than the harness's timing of the same model.
  p.key.clock = r.timed_by == "runtime" ? "runtime-" + target.clock : target.clock;
  p.model_sha256 = r.model_sha256;
  p.samples = r.repetitions;
  p.median_ms = r.median_ms;
  p.min_ms = r.min_ms;
  p.p90_ms = r.p90_ms;
  p.mean_ms = r.mean_ms;
  p.cv = r.cv;
  return p;
}

CasePoint CasePointOf(const RunRecord& run, const CaseRecord& r) {
  CasePoint p;
  p.key.suite = r.suite;
  p.key.case_name = r.name;
  p.key.runtime = r.runtime.empty() ? run.runtime_name : r.runtime;
  p.key.ep = r.ep;
  p.verdict = VerdictToString(r.verdict);
  p.margin = CaseMargin(r);
  return p;
}

}  // namespace

EnvLookup ProcessEnvironment() {
  return [](const char* name) { return static_cast<const char*>(std::getenv(name)); };
}

std::string ResolveHistoryCommit(const std::string& flag, const EnvLookup& env) {
  const std::string own = FirstSet(flag, {"ONNXGATE_COMMIT"}, env);
  if (own != kUnknown) return own;
  return FirstSet("", {"GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT"}, env);
}

std::string ResolveHistoryBranch(const std::string& flag, const EnvLookup& env) {
  const std::string own = FirstSet(flag, {"ONNXGATE_BRANCH"}, env);
  if (own != kUnknown) return own;
  return FirstSet("", {"GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "GIT_BRANCH"}, env);
}

std::optional<double> CaseMargin(const CaseRecord& record) {
  std::optional<double> worst;
  for (const OutputComparison& output : record.outputs) {
    const std::optional<double> margin = OutputToleranceShare(output);
    if (margin) worst = std::max(worst.value_or(0.0), *margin);
  }
  return worst;
}

void ResolveHistoryTarget(HistoryTarget* target, const EnvLookup& env) {
  target->commit = ResolveHistoryCommit(target->commit, env);
  target->branch = ResolveHistoryBranch(target->branch, env);
}

HistoryRun HistoryFromRun(const RunRecord& run, const HistoryTarget& target) {
  HistoryRun h;
  h.context = ContextOf(run, target);
  for (const LatencyRecord& r : run.latency) {
    // A model that could not be measured has no numbers to record.
    if (r.verdict != LatencyVerdict::kError) h.latency.push_back(LatencyPointOf(run, r, target));
  }
  for (const CaseRecord& r : run.cases) h.cases.push_back(CasePointOf(run, r));
  return h;
}

StatusOr<HistoryAppended> AppendRunToHistory(const HistoryTarget& target, const HistoryRun& run) {
  constexpr char kNotRecorded[] = "the run was not recorded in the history";
  StatusOr<std::unique_ptr<ResultsStore>> store = OpenResultsStore(target.database, true);
  if (!store.ok()) return store.status().WithContext(kNotRecorded);
  StatusOr<int64_t> id = (*store)->Append(run);
  if (!id.ok()) return id.status().WithContext(kNotRecorded);
  return HistoryAppended{*id, (*store)->name()};
}

}  // namespace onnxgate
