// The run/gate stages on a hand-built plan: a worker's end becomes the case's record, the judge
// splits judged cases from those a stop left unrun, and publish names the reports in order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/case_result_codec.h"
#include "harness/run_execute.h"
#include "harness/run_judge.h"
#include "harness/run_plan.h"
#include "harness/run_publish.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// One suite of two cases on one EP of two runtimes (side by side; the runtimes are never called).
RunPlan TwoCasePlan() {
  RunPlan plan;
  plan.options.root = "/r";
  plan.options.suites = {"s"};
  Suite suite;
  suite.name = "s";
  suite.cases.resize(2);
  suite.cases[0].name = "a";
  suite.cases[0].op_types = {"Relu"};
  suite.cases[1].name = "b";
  plan.suites.push_back(std::move(suite));
  plan.runtimes.resize(2);
  plan.runtimes[0].eps = {"ref"};
  plan.runtimes[1].spec = "ort";
  plan.runtimes[1].eps = {"ref"};
  plan.labels = {"one", "two"};
  plan.side_by_side = true;
  const Suite& s = plan.suites[0];
  plan.requests = {{&s, &s.cases[0], 0, "ref"}, {&s, &s.cases[1], 1, "ref"}};
  return plan;
}

JobResult Ok(size_t index, std::string payload) {
  JobResult r;
  r.index = index;
  r.outcome = JobOutcome::kOk;
  r.payload = std::move(payload);
  r.started = true;
  return r;
}

TEST(RunStagesTest, AWorkersRecordComesBackLabelledWithItsReproducer) {
  const RunPlan plan = TwoCasePlan();
  CaseRecord sent;
  sent.suite = "s";
  sent.name = "b";
  sent.ep = "ref";
  sent.verdict = sent.outcome = Verdict::kFail;
  sent.message = "differs";
  const CaseRecord r =
      RecordFromResult(plan, plan.requests[1], Ok(1, EncodeCaseResult({OkStatus(), sent})));
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.message, "differs");
  EXPECT_EQ(r.runtime, "two");
  EXPECT_THAT(r.reproducer, HasSubstr("--case=s/b"));
  EXPECT_THAT(r.reproducer, HasSubstr("--runtime=ort"));
}

TEST(RunStagesTest, AnUnreadableResultIsTheCasesCrashNeverAnAbort) {
  const RunPlan plan = TwoCasePlan();
  const std::string good = EncodeCaseResult({OkStatus(), CaseRecord()});
  for (const std::string& payload : {std::string(), std::string("garbage"), good.substr(0, 20),
                                     std::string(good.size() * 4, '\xff')}) {
    const CaseRecord r = RecordFromResult(plan, plan.requests[0], Ok(0, payload));
    EXPECT_EQ(r.verdict, Verdict::kCrash) << payload.size();
    EXPECT_EQ(r.outcome, Verdict::kCrash);
    EXPECT_THAT(r.message, StartsWith("unreadable worker result: "));
    EXPECT_EQ(r.name, "a") << "the request says which case it was";
    EXPECT_EQ(r.op_types, std::vector<std::string>{"Relu"});
    EXPECT_EQ(r.runtime, "one");
  }
}

TEST(RunStagesTest, AnErrorResultIsUnresolvedWithItsCode) {
  const RunPlan plan = TwoCasePlan();
  const CaseRecord r = RecordFromResult(
      plan, plan.requests[0], Ok(0, EncodeCaseResult({Unavailable("no slot"), CaseRecord()})));
  EXPECT_EQ(r.verdict, Verdict::kUnresolved);
  EXPECT_EQ(r.message, "worker could not run the case: UNAVAILABLE: no slot");
}

TEST(RunStagesTest, CrashesAndTimeoutsSayWhatHappenedToTheWorker) {
  const RunPlan plan = TwoCasePlan();
  JobResult crashed;
  crashed.outcome = JobOutcome::kCrash;
  crashed.message = "killed by SIGSEGV";
  crashed.seconds = 0.5;
  CaseRecord r = RecordFromResult(plan, plan.requests[0], crashed);
  EXPECT_EQ(r.verdict, Verdict::kCrash);
  EXPECT_EQ(r.message, "worker killed by SIGSEGV");
  EXPECT_EQ(r.duration_s, 0.5);
  JobResult timed_out;
  timed_out.outcome = JobOutcome::kTimeout;
  timed_out.message = "timed out after 2.0 s (limit 2.0 s)";
  r = RecordFromResult(plan, plan.requests[1], timed_out);
  EXPECT_EQ(r.verdict, Verdict::kTimeout);
  EXPECT_EQ(r.runtime, "two");
}

TEST(RunStagesTest, TheJudgeListsWhatAStopLeftUnrunAndJudgesTheRest) {
  const RunPlan plan = TwoCasePlan();
  for (bool stopped : {false, true}) {
    Execution execution;
    execution.records.resize(2);
    execution.records[0].name = "a";
    execution.results.resize(2);
    execution.results[0] = Ok(0, "");
    execution.results[1].index = 1;
    execution.results[1].message = "not run: fork failed: Resource temporarily unavailable";
    execution.stopped = stopped;
    execution.stop_cause = "SIGTERM";
    RunRecord run;
    JudgeRun(plan, std::move(execution), &run);
    if (!stopped) {
      ASSERT_EQ(run.cases.size(), 2u);
      EXPECT_EQ(run.cases[1].verdict, Verdict::kUnresolved);
      EXPECT_THAT(run.cases[1].message, HasSubstr("worker not run: fork failed"));
      EXPECT_EQ(run.status, RunStatus::kCompleted);
      continue;
    }
    ASSERT_EQ(run.cases.size(), 1u);
    ASSERT_EQ(run.not_run.size(), 1u);
    EXPECT_EQ(run.not_run[0].runtime, "two");
    EXPECT_THAT(run.not_run[0].reason, HasSubstr("interrupted by SIGTERM (not run: fork failed"));
    EXPECT_EQ(run.status, RunStatus::kInterrupted);
    EXPECT_EQ(run.status_message,
              "interrupted by SIGTERM: 1 of 2 selected case(s) x EP finished, 1 not run");
    EXPECT_EQ(run.totals.total(), 1);
  }
}

TEST(RunStagesTest, ReportsAreWrittenInTheirOrderForTheOptionsGiven) {
  RunCommandOptions options;
  EXPECT_TRUE(RunReportTargets(options).empty());
  options.markdown_path = "m";
  options.junit_path = "j";
  options.html_path = "h";
  options.json_path = "s";
  std::vector<std::string> paths;
  for (const ReportTarget& t : RunReportTargets(options)) paths.push_back(t.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"j", "s", "h", "m"}));
}

}  // namespace
}  // namespace onnxgate
