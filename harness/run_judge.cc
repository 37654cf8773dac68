// JudgeCase and JudgeRun: expectations per record, then totals, matrix and coverage.
#include "harness/run_judge.h"

#include <chrono>
#include <filesystem>
#include <utility>

#include "conformance/expectations.h"
#include "conformance/expectations_naming.h"
#include "conformance/matrix.h"
#include "harness/report_diff.h"

namespace onnxgate {

namespace {

NotRunRecord NotRun(const RunPlan& plan, const CaseRequest& request, const JobResult& result,
                    const std::string& stop_cause) {
  NotRunRecord n;
  n.suite = request.suite->name;
  n.name = request.c->name;
  n.op_types = request.c->op_types;
  if (plan.side_by_side) n.runtime = plan.labels[request.runtime];
  n.ep = request.ep;
  n.reason = "not run: the run was interrupted by " + stop_cause;
  if (result.started) {
    n.reason += " while it was running";
  } else if (result.message != "not run") {
    n.reason += " (" + result.message + ")";
  }
  n.reproducer = RequestReproducer(plan, request);
  return n;
}

}  // namespace

GateRecord JudgeGate(const RunPlan& plan, const RunRecord& run) {
  GateRecord gate;
  gate.strict = plan.options.strict;
  gate.unexpected = CountUnexpected(run.cases, gate.strict);
  gate.passed = gate.unexpected.total() == 0 && run.status == RunStatus::kCompleted;
  if (plan.release) {
    const ReportDiff diff = DiffReports(*plan.release, run);
    gate.against_report = plan.options.against_report;
    gate.worse_than_release = static_cast<int64_t>(diff.Count(VerdictChange::kWorse));
    gate.better_than_release = static_cast<int64_t>(diff.Count(VerdictChange::kBetter));
    gate.margin_grew_since_release = static_cast<int64_t>(diff.margin_grew.size());
    gate.passed = gate.passed && gate.worse_than_release == 0;
  }
  for (size_t i = 0; i < plan.runtimes.size(); ++i) {
    for (const std::string& ep : plan.runtimes[i].eps) {
      const RuntimeEp key{i, ep};
      GateExpectationsRecord e;
      if (plan.side_by_side) e.runtime = plan.labels[i];
      e.ep = ep;
      const auto path = plan.expectation_paths.find(key);
      if (path != plan.expectation_paths.end()) {
        e.file = ExpectationsPathShown(path->second, plan.options.root);
      }
      e.found = plan.expectations_found.count(key) > 0;
      const auto file = plan.expectations.find(key);
      if (file != plan.expectations.end()) e.entries = file->second.entries.size();
      gate.expectations.push_back(std::move(e));
    }
  }
  return gate;
}

void JudgeCase(const RunPlan& plan, const CaseRequest& request, CaseRecord& record) {
  if (!plan.options.apply_expectations) return;
  const RuntimeEp key{request.runtime, request.ep};
  const auto file = plan.expectations.find(key);
  const auto path = plan.expectation_paths.find(key);
  // PlanRun reads a file (or an empty one) for every runtime and EP of a gate.
  if (file == plan.expectations.end() || path == plan.expectation_paths.end()) return;
  ApplyExpectation(file->second, path->second, record);
}

void JudgeRun(const RunPlan& plan, Execution execution, RunRecord* run) {
  std::vector<CaseRecord> finished;
  for (const JobResult& result : execution.results) {
    if (result.outcome != JobOutcome::kNotRun) {
      finished.push_back(std::move(execution.records[result.index]));
      continue;
    }
    const CaseRequest& request = plan.requests[result.index];
    if (!execution.stopped) {
      CaseRecord r = RecordWithoutResult(plan, request, result, Verdict::kUnresolved);
      JudgeCase(plan, request, r);
      finished.push_back(std::move(r));
      continue;
    }
    run->not_run.push_back(NotRun(plan, request, result, execution.stop_cause));
  }
  // A stop that came after the last case finished left the results complete.
  if (!run->not_run.empty()) {
    run->status = RunStatus::kInterrupted;
    run->status_message =
        "interrupted by " + execution.stop_cause + ": " + std::to_string(finished.size()) + " of " +
        std::to_string(plan.requests.size()) + " selected case(s) x EP finished, " +
        std::to_string(run->not_run.size()) + " not run";
  }
  run->cases = std::move(finished);
  run->totals = CountVerdicts(run->cases);
  run->matrix = BuildMatrix(run->cases);
  run->coverage = BuildCoverage(plan.operators, run->cases);
  run->end_time = std::chrono::system_clock::now();
  run->duration_s = std::chrono::duration<double>(run->end_time - run->start_time).count();
  if (plan.options.apply_expectations) run->gate = JudgeGate(plan, *run);
}

}  // namespace onnxgate
