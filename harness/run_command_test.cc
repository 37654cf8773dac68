// Tests of the run/gate driver against a gmock runtime: verdicts, exit codes, reports,
// expectations, and CRASH/TIMEOUT containment in worker processes.
#include "harness/run_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <thread>

#include "conformance/expectations_naming.h"
#include "conformance/expectations_update.h"
#include "harness/harness_test_util.h"
#include "harness/mock_runtime.h"
#include "harness/worker.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::NiceMock;
using ::testing::Not;
using ::testing::Return;

// A model that answers Run with `behaviour`.
std::unique_ptr<LoadedModel> Model(std::function<StatusOr<std::vector<Value>>()> behaviour) {
  auto m = std::make_unique<NiceMock<MockLoadedModel>>();
  ValueInfo x, y;
  x.name = "X";
  y.name = "Y";
  ON_CALL(*m, inputs()).WillByDefault(Return(std::vector<ValueInfo>{x}));
  ON_CALL(*m, outputs()).WillByDefault(Return(std::vector<ValueInfo>{y}));
  ON_CALL(*m, placements())
      .WillByDefault(Return(std::vector<NodePlacement>{{"n0", "Relu", "", 13, "ref", {}, ""}}));
  ON_CALL(*m, Run(_)).WillByDefault([behaviour](const std::vector<NamedValue>&) {
    return behaviour();
  });
  return m;
}

class RunCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("run_command_test");
    WriteMiniSuite(root_, {{"pass", "Relu", Floats({-1, 2}), Floats({0, 2})},
                           {"wrong", "Relu", Floats({-1, 2}), Floats({0, 2.5f})},
                           {"declined", "Relu", Floats({1}), Floats({1})},
                           {"stale", "Relu", Floats({1}), Floats({1}), true},
                           {"crash", "Relu", Floats({1}), Floats({1})},
                           {"hang", "Relu", Floats({1}), Floats({1})}});
    ON_CALL(runtime_, name()).WillByDefault(Return("mock"));
    ON_CALL(runtime_, version()).WillByDefault(Return("1.0 (mock)"));
    ON_CALL(runtime_, providers()).WillByDefault(Return(std::vector<std::string>{"ref"}));
    ON_CALL(runtime_, Claims(_))
        .WillByDefault([](const std::string& ep) -> StatusOr<std::vector<OpClaim>> {
          if (ep == "ref") return std::vector<OpClaim>{};
          return NotFound("no provider " + ep);
        });
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault([](const std::string& path,
                          const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
          std::string name = fs::path(path).stem().string();
          if (name == "declined") return Unimplemented("no kernel for Relu-13 with T=float");
          if (name == "wrong") return Model([] { return std::vector<Value>{Floats({0, 2})}; });
          if (name == "crash")
            return Model([]() -> StatusOr<std::vector<Value>> {
              std::raise(SIGSEGV);
              return Internal("unreachable");
            });
          if (name == "hang")
            return Model([]() -> StatusOr<std::vector<Value>> {
              for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
            });
          return Model([] { return std::vector<Value>{Floats({0, 2})}; });
        });
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/2);
  }

  void TearDown() override { fs::remove_all(root_); }

  CaseRecord Case(const RunRecord& run, const std::string& name) {
    for (const CaseRecord& c : run.cases) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << "no case " << name;
    return {};
  }

  std::string root_;
  NiceMock<MockRuntime> runtime_;
  RunCommandOptions options_;
};

TEST_F(RunCommandTest, EveryVerdictIsContainedAndReported) {
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), 6u);
  EXPECT_EQ(Case(*run, "pass").verdict, Verdict::kPass);
  CaseRecord wrong = Case(*run, "wrong");
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  ASSERT_EQ(wrong.outputs.size(), 1u);
  EXPECT_EQ(wrong.outputs[0].worst_index, 1);
  EXPECT_EQ(wrong.outputs[0].worst_expected, "2.5");
  EXPECT_EQ(wrong.outputs[0].worst_actual, "2");
  EXPECT_THAT(wrong.reproducer, HasSubstr("--case=mini/wrong"));
  EXPECT_THAT(wrong.reproducer, HasSubstr(" --root ")) << "an option of onnxgate itself";
  EXPECT_LT(wrong.reproducer.find(" --root "), wrong.reproducer.find(" run "));
  EXPECT_EQ(Case(*run, "declined").verdict, Verdict::kUnsupported);
  CaseRecord stale = Case(*run, "stale");
  EXPECT_EQ(stale.verdict, Verdict::kUnresolved);
  EXPECT_THAT(stale.message, HasSubstr("stale golden"));
  CaseRecord crash = Case(*run, "crash");
  EXPECT_EQ(crash.verdict, Verdict::kCrash);
  EXPECT_THAT(crash.message, HasSubstr("SIGSEGV"));
  EXPECT_EQ(Case(*run, "hang").verdict, Verdict::kTimeout);
  // The other reports are complete too.
  auto junit = ReadFile(options_.junit_path);
  ASSERT_TRUE(junit.ok());
  EXPECT_THAT(*junit, HasSubstr("expected 2.5"));
  EXPECT_TRUE(ReadFile(options_.markdown_path).ok());
}

TEST_F(RunCommandTest, TheOptimizationLevelReachesTheRuntimeAndTheReproducer) {
  ON_CALL(runtime_, Load(_, _))
      .WillByDefault(
          [](const std::string&, const LoadOptions& o) -> StatusOr<std::unique_ptr<LoadedModel>> {
            if (o.optimization_level != 2) {
              return Internal("loaded at level " + std::to_string(o.optimization_level));
            }
            return Model([] { return std::vector<Value>{Floats({0, 2})}; });
          });
  options_.optimization_level = 2;
  options_.selection.filters = {"pass", "wrong"};
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(Case(*run, "pass").verdict, Verdict::kPass);
  EXPECT_EQ(Case(*run, "wrong").verdict, Verdict::kFail);
  EXPECT_THAT(Case(*run, "wrong").reproducer, HasSubstr(" --optimization-level 2"));
  options_.optimization_level = 3;
  EXPECT_EQ(RunCommand(options_, runtime_), 2);
}

TEST_F(RunCommandTest, UnknownEpAndSuiteAreUsageErrors) {
  options_.eps = {"gpu"};
  EXPECT_EQ(RunCommand(options_, runtime_), 2);
  options_.eps = {"ref"};
  options_.suites = {"nonexistent"};
  EXPECT_EQ(RunCommand(options_, runtime_), 2);
  EXPECT_FALSE(fs::exists(options_.json_path));
}

TEST_F(RunCommandTest, GateAppliesExpectationsAndFailsOnXpass) {
  options_.apply_expectations = true;
  options_.selection.filters = {"wrong", "declined", "pass"};
  std::string path = root_ + "/conformance/expectations/ref.json";
  ASSERT_TRUE(WriteFileAtomically(path, R"({"ep": "ref", "entries": [
      {"case": "wrong", "status": "xfail", "reason": "known numerics bug"},
      {"case": "decl*", "status": "unsupported", "reason": "no Relu kernel"}]})")
                  .ok());
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(Case(*run, "wrong").verdict, Verdict::kXfail);
  EXPECT_EQ(Case(*run, "wrong").expectation_reason, "known numerics bug");

  ASSERT_TRUE(WriteFileAtomically(path, R"({"ep": "ref", "entries": [
      {"case": "pass", "status": "xfail", "reason": "was broken"},
      {"case": "wrong", "status": "xfail", "reason": "known"},
      {"case": "declined", "status": "unsupported", "reason": "no kernel"}]})")
                  .ok());
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(Case(*run, "pass").verdict, Verdict::kXpass);
  EXPECT_THAT(Case(*run, "pass").message, HasSubstr("expectations update"));
  options_.strict = false;
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
}

// An xfail entry written for a numeric FAIL does not hide a crash, a hang or a stale golden:
// the gate fails and says what the entry expected; entries that name those verdicts pass.
TEST_F(RunCommandTest, AnXfailEntryPassesOnlyTheVerdictItPredicts) {
  options_.apply_expectations = true;
  options_.selection.filters = {"crash", "hang", "stale"};
  std::string path = root_ + "/conformance/expectations/ref.json";
  ASSERT_TRUE(WriteFileAtomically(path, R"({"ep": "ref", "entries": [
      {"case": "crash", "status": "xfail", "reason": "numbers off"},
      {"case": "hang", "status": "xfail", "reason": "numbers off"},
      {"case": "stale", "status": "xfail", "reason": "numbers off"}]})")
                  .ok());
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(Case(*run, "crash").verdict, Verdict::kCrash);
  EXPECT_THAT(Case(*run, "crash").message, HasSubstr("ref.json expected FAIL, got CRASH"));
  EXPECT_EQ(Case(*run, "hang").verdict, Verdict::kTimeout);
  EXPECT_THAT(Case(*run, "hang").message, HasSubstr("expected FAIL, got TIMEOUT"));
  EXPECT_EQ(Case(*run, "stale").verdict, Verdict::kUnresolved);
  EXPECT_THAT(Case(*run, "stale").message, HasSubstr("expected FAIL, got UNRESOLVED"));
  auto junit = ReadFile(options_.junit_path);
  ASSERT_TRUE(junit.ok());
  EXPECT_THAT(*junit, HasSubstr("expected FAIL, got CRASH"));

  ASSERT_TRUE(WriteFileAtomically(path, R"({"ep": "ref", "entries": [
      {"case": "crash", "status": "xfail", "verdict": "CRASH", "reason": "segfaults"},
      {"case": "hang", "status": "xfail", "verdict": "TIMEOUT", "reason": "loops"},
      {"case": "stale", "status": "xfail", "verdict": "UNRESOLVED", "reason": "old golden"}]})")
                  .ok());
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
  run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  for (const char* name : {"crash", "hang", "stale"}) {
    EXPECT_EQ(Case(*run, name).verdict, Verdict::kXfail) << name;
  }
}

TEST_F(RunCommandTest, SideBySideRunsEveryCaseOnEachRuntimeWithItsOwnExpectations) {
  // A second runtime with another EP whose "wrong" case passes; both are called "mock", so
  // their labels carry the versions.
  NiceMock<MockRuntime> other;
  ON_CALL(other, name()).WillByDefault(Return("mock"));
  ON_CALL(other, version()).WillByDefault(Return("2.0"));
  ON_CALL(other, providers()).WillByDefault(Return(std::vector<std::string>{"fast"}));
  ON_CALL(other, Claims(_)).WillByDefault(Return(std::vector<OpClaim>{}));
  ON_CALL(other, Load(_, _))
      .WillByDefault(
          [](const std::string&, const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
            return Model([] { return std::vector<Value>{Floats({0, 2.5f})}; });
          });
  options_.apply_expectations = true;
  options_.selection.filters = {"wrong"};
  ASSERT_TRUE(WriteFileAtomically(root_ + "/conformance/expectations/ref.json",
                                  R"({"ep": "ref", "entries": [
      {"case": "wrong", "status": "xfail", "reason": "known numerics bug"}]})")
                  .ok());
  RuntimeInRun first, second;
  first.runtime = &runtime_;
  first.eps = {"ref"};
  second.runtime = &other;
  second.spec = "plugin:/opt/other.so";
  second.eps = {"fast"};
  EXPECT_EQ(RunCommand(options_, std::vector<RuntimeInRun>{first, second}), 0);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->runtimes.size(), 2u);
  EXPECT_EQ(run->runtimes[0].label, "mock@1.0 (mock)");
  EXPECT_EQ(run->runtimes[1].label, "mock@2.0");
  EXPECT_EQ(run->runtimes[1].spec, "plugin:/opt/other.so");
  ASSERT_EQ(run->cases.size(), 2u);
  EXPECT_EQ(TargetName(run->cases[0]), "mock@1.0 (mock)/ref");
  EXPECT_EQ(run->cases[0].verdict, Verdict::kXfail);  // ref.json
  EXPECT_EQ(TargetName(run->cases[1]), "mock@2.0/fast");
  EXPECT_EQ(run->cases[1].verdict, Verdict::kPass);  // no mock.fast.json: nothing expected
  EXPECT_THAT(
      run->cases[1].reproducer,
      HasSubstr(" gate --suite mini --case=mini/wrong --ep fast --runtime=plugin:/opt/other.so"));
  EXPECT_THAT(run->cases[0].reproducer, ::testing::Not(HasSubstr("--runtime")));
  ASSERT_EQ(run->matrix.size(), 2u);
  EXPECT_EQ(run->matrix[0].runtime, "mock@1.0 (mock)");
  EXPECT_EQ(run->matrix[1].runtime, "mock@2.0");
}

TEST_F(RunCommandTest, ShardsSplitTheCases) {
  options_.selection.filters = {"pass", "wrong", "declined", "stale"};
  options_.selection.shard_count = 2;
  options_.selection.shard_index = 1;
  RunCommand(options_, runtime_);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->cases.size(), 2u);
  EXPECT_EQ(run->cases[0].name, "wrong");
  EXPECT_EQ(run->cases[1].name, "stale");
}

// The counts of the <testsuites> element: tests, failures, errors.
std::map<std::string, int64_t> JunitTotals(const std::string& xml) {
  std::map<std::string, int64_t> totals;
  std::smatch top;
  if (!std::regex_search(xml, top, std::regex("<testsuites[^>]*>"))) return totals;
  const std::string element = top.str();
  for (const char* key : {"tests", "failures", "errors", "skipped"}) {
    std::smatch m;
    if (std::regex_search(element, m, std::regex(std::string(" ") + key + "=\"([0-9]+)\""))) {
      totals[key] = std::stoll(m[1].str());
    }
  }
  return totals;
}

// At a process limit fork fails: the cases it could not start are UNRESOLVED with the reason,
// never absent, and the gate fails. Every second fork fails here.
pid_t EverySecondForkFails() {
  static int calls = 0;
  if (++calls % 2 == 0) {
    errno = EAGAIN;
    return -1;
  }
  return ::fork();
}

TEST_F(RunCommandTest, CasesThatCouldNotStartAreUnresolvedNeverAbsent) {
  worker_testing::SetForkFunction(EverySecondForkFails);
  options_.jobs = 1;
  options_.isolation = Isolation::kCase;  // a fork per case, so that two of the four fail
  options_.selection.filters = {"pass", "wrong", "declined", "stale"};
  options_.apply_expectations = true;
  const int exit_code = onnxgate::RunCommand(options_, runtime_);
  worker_testing::SetForkFunction(nullptr);
  EXPECT_EQ(exit_code, 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->cases.size(), 4u) << "every selected case is reported";
  EXPECT_TRUE(run->not_run.empty());
  int unstarted = 0;
  for (const CaseRecord& c : run->cases) {
    if (c.message.find("fork failed") == std::string::npos) continue;
    ++unstarted;
    EXPECT_EQ(c.verdict, Verdict::kUnresolved) << c.name;
    EXPECT_THAT(c.message, HasSubstr("Resource temporarily unavailable")) << c.name;
  }
  EXPECT_EQ(unstarted, 2);
  std::map<std::string, int64_t> totals = JunitTotals(*ReadFile(options_.junit_path));
  EXPECT_EQ(totals["tests"], 4);
  EXPECT_GE(totals["errors"], 2);
}

// Every case's load sends SIGTERM to the test process, as a user or CI runner would, so the run
// is interrupted during its first case without any timing: the worker checks the stop flag
// before it starts another case, and the flag is set before the first case can end.
class InterruptedRunTest : public RunCommandTest, public ::testing::WithParamInterface<Isolation> {
 protected:
  void SetUp() override {
    RunCommandTest::SetUp();
    const pid_t test_process = ::getpid();
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault(
            [test_process](const std::string&,
                           const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
              ::kill(test_process, SIGTERM);
              return Model([] { return std::vector<Value>{Floats({0, 2})}; });
            });
    options_.isolation = GetParam();
    options_.jobs = 1;
    options_.selection.filters = {"pass", "wrong", "declined", "stale"};
    options_.html_path = root_ + "/out/run.html";
  }
  void TearDown() override {
    ClearStopRequest();
    RunCommandTest::TearDown();
  }
};

TEST_P(InterruptedRunTest, ReportsSayInterruptedAndListTheCasesNotRun) {
  const int exit_code = RunCommand(options_, runtime_);
  EXPECT_EQ(exit_code, 2) << "an interrupted run must not pass";

  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->status, RunStatus::kInterrupted);
  EXPECT_THAT(run->status_message, HasSubstr("interrupted by SIGTERM"));
  EXPECT_EQ(run->cases.size() + run->not_run.size(), 4u) << "finished + not run == selection";
  // In process the first case ends before the flag is looked at; in a worker it may be killed.
  if (GetParam() != Isolation::kNone) {
    EXPECT_GE(run->not_run.size(), 3u);
  } else {
    EXPECT_EQ(run->cases.size(), 1u);
    EXPECT_EQ(run->not_run.size(), 3u);
  }
  EXPECT_THAT(run->status_message, HasSubstr(std::to_string(run->cases.size()) +
                                             " of 4 selected case(s) x EP finished"));
  for (const NotRunRecord& n : run->not_run) {
    EXPECT_EQ(n.suite, "mini");
    EXPECT_EQ(n.ep, "ref");
    EXPECT_THAT(n.reason, HasSubstr("not run: the run was interrupted by SIGTERM"));
    EXPECT_THAT(n.reproducer, HasSubstr("--case=mini/" + n.name));
  }
  EXPECT_EQ(run->not_run.back().name, "stale") << "the last selected case never started";

  auto junit = ReadFile(options_.junit_path);
  ASSERT_TRUE(junit.ok());
  std::map<std::string, int64_t> totals = JunitTotals(*junit);
  EXPECT_EQ(totals["tests"], 4);
  EXPECT_GE(totals["errors"], static_cast<int64_t>(run->not_run.size()));
  EXPECT_EQ(totals["failures"] + totals["errors"] > 0, exit_code != 0)
      << "the JUnit counts agree with the exit code";
  EXPECT_THAT(*junit, HasSubstr("type=\"NOT_RUN\""));
  EXPECT_THAT(*junit, HasSubstr("<property name=\"run_status\" value=\"interrupted\"/>"));
  EXPECT_THAT(*junit, HasSubstr("<system-err>interrupted by SIGTERM"));
  // The default dialect is the strict one (reports/junit-strict.xsd).
  if (std::system("command -v xmllint >/dev/null") == 0) {
    const std::string validate = "xmllint --noout --schema '" ONNXGATE_SOURCE_DIR
                                 "/reports/junit-strict.xsd' '" +
                                 options_.junit_path + "'";
    EXPECT_EQ(std::system(validate.c_str()), 0) << validate;
  }

  auto markdown = ReadFile(options_.markdown_path);
  ASSERT_TRUE(markdown.ok());
  EXPECT_THAT(*markdown, HasSubstr("**Run interrupted:** interrupted by SIGTERM"));
  EXPECT_THAT(*markdown, HasSubstr("not run: the run was interrupted by SIGTERM"));
  auto html = ReadFile(options_.html_path);
  ASSERT_TRUE(html.ok());
  EXPECT_THAT(*html, HasSubstr("Run interrupted: interrupted by SIGTERM"));
}

INSTANTIATE_TEST_SUITE_P(EveryIsolation, InterruptedRunTest,
                         ::testing::Values(Isolation::kWorker, Isolation::kCase, Isolation::kNone),
                         [](const ::testing::TestParamInfo<Isolation>& info) {
                           return std::string(IsolationName(info.param));
                         });

TEST_F(RunCommandTest, CompletedRunSaysCompleted) {
  options_.selection.filters = {"pass"};
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->status, RunStatus::kCompleted);
  EXPECT_TRUE(run->status_message.empty());
  EXPECT_TRUE(run->not_run.empty());
  auto junit = ReadFile(options_.junit_path);
  ASSERT_TRUE(junit.ok());
  EXPECT_THAT(*junit, ::testing::Not(HasSubstr("run_status")));
}

TEST_F(RunCommandTest, AGateWithoutAnExpectationsFileSaysSoInJsonAndOnTheConsole) {
  options_.apply_expectations = true;
  options_.selection.filters = {"pass", "wrong"};
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, HasSubstr("  ref: no expectations file conformance/expectations/ref.json: "
                             "every case must pass\n"));
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_TRUE(run->gate.has_value());
  EXPECT_FALSE(run->gate->passed);
  EXPECT_EQ(run->gate->unexpected.failures, 1);
  EXPECT_EQ(run->gate->unexpected.total(), 1);
  ASSERT_EQ(run->gate->expectations.size(), 1u);
  EXPECT_FALSE(run->gate->expectations[0].found);
  EXPECT_EQ(run->gate->expectations[0].file, "conformance/expectations/ref.json");
  EXPECT_EQ(run->gate->expectations[0].ep, "ref");

  // A plain run has no gate object.
  options_.apply_expectations = false;
  ::testing::internal::CaptureStdout();
  RunCommand(options_, runtime_);
  EXPECT_THAT(::testing::internal::GetCapturedStdout(), Not(HasSubstr("Expectations:")));
  run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_FALSE(run->gate.has_value());
}

TEST_F(RunCommandTest, NoStrictListsAnXpassCellAsImprovedNeverAsFailing) {
  options_.apply_expectations = true;
  options_.selection.filters = {"pass"};
  ASSERT_TRUE(WriteFileAtomically(root_ + "/conformance/expectations/ref.json",
                                  R"({"ep": "ref", "entries": [
      {"case": "pass", "status": "xfail", "reason": "was broken"}]})")
                  .ok());
  options_.strict = false;
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, Not(HasSubstr("failing:")));
  EXPECT_THAT(out, HasSubstr("  improved: Relu v13 ref: 1 xpass"));
  EXPECT_THAT(out, HasSubstr("  ref: judged by conformance/expectations/ref.json (1 entry)"));
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(run->gate.has_value());
  EXPECT_TRUE(run->gate->passed);
  EXPECT_FALSE(run->gate->strict);
  EXPECT_EQ(run->gate->unexpected.total(), 0);

  options_.strict = true;
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  out = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, HasSubstr("  failing: Relu v13 ref: 1 xpass"));
  run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->gate->unexpected.xpass, 1);
}

// A runtime that is neither built in nor in the registry is judged by <name>.<ep>.json, and the
// file an update writes by the same rule is the one the next gate reads.
TEST_F(RunCommandTest, AnUpdatedFileIsTheOneTheNextGatePasses) {
  RuntimeInRun plugin;
  plugin.runtime = &runtime_;
  plugin.spec = "plugin:/opt/mock.so";
  plugin.eps = {"ref"};
  options_.apply_expectations = true;
  options_.selection.filters = {"pass", "wrong", "declined"};
  EXPECT_EQ(RunCommand(options_, std::vector<RuntimeInRun>{plugin}), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->gate->expectations.size(), 1u);
  EXPECT_EQ(run->gate->expectations[0].file, "conformance/expectations/mock.ref.json");

  const RuntimeRecord& r = run->runtimes.at(0);
  auto name = ExpectationsFileName(ExpectationsOwnerOf(r.spec, "", r.name), "ref");
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  ASSERT_EQ(*name, "mock.ref.json");
  auto written =
      UpdateExpectationsFile(root_ + "/conformance/expectations/" + *name, "ref", run->cases);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->after.entries.size(), 2u);
  EXPECT_FALSE(fs::exists(root_ + "/conformance/expectations/ref.json"));

  EXPECT_EQ(RunCommand(options_, std::vector<RuntimeInRun>{plugin}), 0);
  run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(run->gate->passed);
  EXPECT_TRUE(run->gate->expectations[0].found);
  EXPECT_EQ(run->gate->expectations[0].entries, 2);
}

}  // namespace
}  // namespace onnxgate
