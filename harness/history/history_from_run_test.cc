// Tests of a run as a history entry: commit and branch from flags and the environment, a case's
// error margin, and bench and gate records as points.
#include "harness/history/history_from_run.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

namespace onnxgate {
namespace {

EnvLookup Env(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

TEST(HistoryCommitTest, FlagThenOwnVariableThenCiVariablesThenUnknown) {
  EXPECT_EQ(ResolveHistoryCommit("abc", Env({{"ONNXGATE_COMMIT", "own"}})), "abc");
  EXPECT_EQ(ResolveHistoryCommit("", Env({{"ONNXGATE_COMMIT", "own"}, {"GITHUB_SHA", "gh"}})),
            "own");
  EXPECT_EQ(ResolveHistoryCommit("", Env({{"GITHUB_SHA", "gh"}, {"GIT_COMMIT", "jk"}})), "gh");
  EXPECT_EQ(ResolveHistoryCommit("", Env({{"CI_COMMIT_SHA", "gl"}, {"GIT_COMMIT", "jk"}})), "gl");
  EXPECT_EQ(ResolveHistoryCommit("", Env({{"ONNXGATE_COMMIT", ""}, {"GIT_COMMIT", "jk"}})), "jk");
  EXPECT_EQ(ResolveHistoryCommit("", Env({})), "unknown");
}

TEST(HistoryBranchTest, FlagThenOwnVariableThenCiVariablesThenUnknown) {
  EXPECT_EQ(ResolveHistoryBranch("dev", Env({{"GITHUB_REF_NAME", "main"}})), "dev");
  EXPECT_EQ(ResolveHistoryBranch("", Env({{"ONNXGATE_BRANCH", "rel"}, {"GIT_BRANCH", "x"}})),
            "rel");
  EXPECT_EQ(ResolveHistoryBranch("", Env({{"CI_COMMIT_REF_NAME", "mr"}})), "mr");
  EXPECT_EQ(ResolveHistoryBranch("", Env({{"GIT_BRANCH", "origin/main"}})), "origin/main");
  EXPECT_EQ(ResolveHistoryBranch("", Env({})), "unknown");
}

OutputComparison Compared(double atol, double rtol, double need_atol, double need_rtol) {
  OutputComparison o;
  o.atol = atol;
  o.rtol = rtol;
  o.min_passing_atol = need_atol;
  o.min_passing_rtol = need_rtol;
  return o;
}

TEST(CaseMarginTest, TheWorstOutputOnTheAxisThatNeededMore) {
  CaseRecord r;
  r.outputs = {Compared(1e-4, 1e-3, 5e-5, 2e-4), Compared(1e-4, 1e-3, 1e-5, 7e-4)};
  ASSERT_TRUE(CaseMargin(r).has_value());
  EXPECT_NEAR(*CaseMargin(r), 0.7, 1e-12);
}

TEST(CaseMarginTest, AbsentWhenNothingWasComparedUnderATolerance) {
  CaseRecord r;
  EXPECT_FALSE(CaseMargin(r).has_value());
  OutputComparison shape = Compared(1e-4, 1e-3, 0, 0);
  shape.error = "shape mismatch";
  OutputComparison metric = Compared(1e-4, 1e-3, 0, 0);
  metric.metrics.push_back({});
  const double inf = std::numeric_limits<double>::infinity();
  r.outputs = {shape, metric, Compared(0, 0, 1, 1), Compared(1e-4, 1e-3, inf, inf)};
  EXPECT_FALSE(CaseMargin(r).has_value());
}

TEST(CaseMarginTest, WhenEitherToleranceAlonePassesTheSmallerShare) {
  CaseRecord r;
  OutputComparison o = Compared(1e-7, 1e-3, 0, 0);
  o.max_abs_error = 6e-8;
  o.max_rel_error = 1.2e-7;
  r.outputs = {o};
  EXPECT_NEAR(*CaseMargin(r), 1.2e-4, 1e-12);
  o.max_abs_error = o.max_rel_error = 0;
  r.outputs = {o};
  EXPECT_EQ(*CaseMargin(r), 0.0);
}

TEST(CaseMarginTest, AFailingOutputIsAboveOne) {
  CaseRecord r;
  r.outputs = {Compared(1e-4, 0, 3e-4, 0)};
  EXPECT_NEAR(*CaseMargin(r), 3.0, 1e-12);
}

RunRecord BenchRun() {
  RunRecord run;
  run.tool_version = "1.2.3";
  run.runtime_name = "onnxgate";
  run.runtime_version = "0.9";
  run.start_time = std::chrono::system_clock::from_time_t(1700000000);
  LatencyRecord a;
  a.model = "mlp";
  a.ep = "ref";
  a.threads = 2;
  a.shapes = "batch=4";
  a.model_sha256 = "ab12";
  a.repetitions = 27;
  a.median_ms = 1.5;
  a.min_ms = 1.4;
  a.p90_ms = 1.7;
  a.mean_ms = 1.55;
  a.cv = 0.02;
  LatencyRecord b = a;
  b.runtime = "ort";
  b.timed_by = "runtime";
  LatencyRecord unmeasured = a;
  unmeasured.model = "broken";
  unmeasured.verdict = LatencyVerdict::kError;
  run.latency = {a, b, unmeasured};
  return run;
}

HistoryTarget Target() {
  HistoryTarget t;
  t.commit = "c1";
  t.branch = "main";
  t.machine = "cpu_2c_release";
  t.optimization_level = 2;
  t.clock = "cpu";
  return t;
}

TEST(HistoryFromRunTest, ABenchIsItsLatencyPointsWithTheRunsContext) {
  const HistoryRun h = HistoryFromRun(BenchRun(), Target());
  EXPECT_EQ(h.context.kind, "bench");
  EXPECT_EQ(h.context.commit, "c1");
  EXPECT_EQ(h.context.branch, "main");
  EXPECT_EQ(h.context.tool_version, "1.2.3");
  EXPECT_EQ(h.context.runtime, "onnxgate");
  EXPECT_EQ(h.context.runtime_version, "0.9");
  EXPECT_EQ(h.context.machine, "cpu_2c_release");
  EXPECT_EQ(h.context.recorded, "2023-11-14T22:13:20Z");
  ASSERT_EQ(h.latency.size(), 2u);
  EXPECT_TRUE(h.cases.empty());
  const LatencyPoint& p = h.latency[0];
  EXPECT_EQ(p.key.model, "mlp");
  EXPECT_EQ(p.key.runtime, "onnxgate");
  EXPECT_EQ(p.key.ep, "ref");
  EXPECT_EQ(p.key.threads, 2);
  EXPECT_EQ(p.key.shapes, "batch=4");
  EXPECT_EQ(p.key.optimization_level, 2);
  EXPECT_EQ(p.key.clock, "cpu");
  EXPECT_EQ(p.model_sha256, "ab12");
  EXPECT_EQ(p.samples, 27);
  EXPECT_DOUBLE_EQ(p.median_ms, 1.5);
  EXPECT_DOUBLE_EQ(p.min_ms, 1.4);
  EXPECT_DOUBLE_EQ(p.p90_ms, 1.7);
  EXPECT_DOUBLE_EQ(p.mean_ms, 1.55);
  EXPECT_DOUBLE_EQ(p.cv, 0.02);
  EXPECT_EQ(h.latency[1].key.runtime, "ort");
  EXPECT_EQ(h.latency[1].key.clock, "runtime-cpu");
}

TEST(HistoryFromRunTest, AGateIsItsCasesWithVerdictAndMargin) {
  RunRecord run;
  run.runtime_name = "onnxgate";
  run.gate = GateRecord{};
  CaseRecord pass;
  pass.suite = "onnx-node";
  pass.name = "test_relu";
  pass.ep = "ref";
  pass.outputs = {Compared(1e-4, 1e-3, 2e-5, 0)};
  CaseRecord crash = pass;
  crash.name = "test_conv";
  crash.runtime = "ort";
  crash.verdict = Verdict::kCrash;
  crash.outputs.clear();
  run.cases = {pass, crash};
  const HistoryRun h = HistoryFromRun(run, Target());
  EXPECT_EQ(h.context.kind, "gate");
  ASSERT_EQ(h.cases.size(), 2u);
  EXPECT_TRUE(h.latency.empty());
  EXPECT_EQ(h.cases[0].key.suite, "onnx-node");
  EXPECT_EQ(h.cases[0].key.case_name, "test_relu");
  EXPECT_EQ(h.cases[0].key.runtime, "onnxgate");
  EXPECT_EQ(h.cases[0].key.ep, "ref");
  EXPECT_EQ(h.cases[0].verdict, "PASS");
  EXPECT_NEAR(h.cases[0].margin.value_or(-1), 0.2, 1e-12);
  EXPECT_EQ(h.cases[1].key.runtime, "ort");
  EXPECT_EQ(h.cases[1].verdict, "CRASH");
  EXPECT_FALSE(h.cases[1].margin.has_value());
}

}  // namespace
}  // namespace onnxgate
