// The harness driving an adapter (runtime/adapter/testing/fault_adapter.py) with worker slots: an
// adapter that dies is that case's CRASH and is started again for the next case; one that hangs
// is the case's TIMEOUT; one that exits while a process it left behind holds its output is the
// case's CRASH at once; garbage on its pipe, a reply of the wrong types or nested past the limit
// fails the case with the adapter, the case and the field named; a late duplicate reply is
// discarded; the run goes on and every report is written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/adapter/adapter_runtime.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class AdapterGateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("onnxgate_adapter_gate");
    fs::remove_all(root_);
    // Relu of non-negative values is the input itself, which the fault adapter echoes.
    WriteMiniSuite(root_, {{"first", "Relu", Floats({1, 2}), Floats({1, 2})},
                           {"second", "Relu", Floats({0, 3}), Floats({0, 3})},
                           {"third", "Relu", Floats({5}), Floats({5})}});
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/3);
    options_.eps = {"echo"};
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string Command(const std::string& fault) {
    return "python3 " + std::string(ONNXGATE_FAULT_ADAPTER) + " " + fault + " " + root_ +
           "/died-once";
  }

  std::pair<int, RunRecord> Run(const std::string& fault) {
    auto runtime = CreateAdapterRuntime(Command(fault), {});
    EXPECT_TRUE(runtime.ok()) << runtime.status().ToString();
    if (!runtime.ok()) return {-1, {}};
    const int rc = RunCommand(options_, **runtime);
    auto run = ReadRunJson(options_.json_path);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    EXPECT_TRUE(fs::exists(options_.junit_path));
    return {rc, run.ok() ? *run : RunRecord{}};
  }

  std::string root_;
  RunCommandOptions options_;
};

TEST_F(AdapterGateTest, AWellBehavedAdapterPassesEveryCase) {
  auto [rc, run] = Run("none");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(run.runtime_name, "fault-adapter");
  ASSERT_EQ(run.cases.size(), 3u);
  for (const CaseRecord& c : run.cases) {
    EXPECT_EQ(c.verdict, Verdict::kPass) << c.name << ": " << c.message;
    ASSERT_EQ(c.placements.size(), 1u);
    EXPECT_EQ(c.placements[0].ep, "echo");
  }
}

TEST_F(AdapterGateTest, AnAdapterThatDiesIsThatCasesCrashAndIsStartedAgain) {
  auto [rc, run] = Run("die_once");
  EXPECT_EQ(rc, 1);
  ASSERT_EQ(run.cases.size(), 3u);
  int crashes = 0, passes = 0;
  for (const CaseRecord& c : run.cases) {
    if (c.verdict == Verdict::kCrash) {
      ++crashes;
      EXPECT_THAT(c.message, HasSubstr("the adapter ended: the adapter closed its output"));
      EXPECT_THAT(c.message, HasSubstr("models/" + c.name));
    }
    if (c.verdict == Verdict::kPass) ++passes;
  }
  EXPECT_EQ(crashes, 1);
  EXPECT_EQ(passes, 2) << "the cases after the death run on a new adapter";
}

TEST_F(AdapterGateTest, AnAdapterThatHangsIsTheCasesTimeout) {
  auto [rc, run] = Run("hang_on_run");
  EXPECT_EQ(rc, 1);
  ASSERT_EQ(run.cases.size(), 3u);
  for (const CaseRecord& c : run.cases) EXPECT_EQ(c.verdict, Verdict::kTimeout) << c.name;
}

TEST_F(AdapterGateTest, GarbageOnThePipeFailsTheCaseWithAdapterAndCaseNamed) {
  auto [rc, run] = Run("garbage_on_run");
  EXPECT_EQ(rc, 1);
  ASSERT_EQ(run.cases.size(), 3u);
  for (const CaseRecord& c : run.cases) {
    EXPECT_EQ(c.verdict, Verdict::kFail) << c.name;
    EXPECT_THAT(c.message, HasSubstr("adapter 'python3 "));
    EXPECT_THAT(c.message, HasSubstr("models/" + c.name));
    EXPECT_THAT(c.message, HasSubstr("not a protocol frame: got 'Traceback"));
  }
}

TEST_F(AdapterGateTest, AnAdapterThatExitsLeavingAnOrphanOnItsOutputIsACrashNotATimeout) {
  auto [rc, run] = Run("orphan_on_run");
  EXPECT_EQ(rc, 1);
  ASSERT_EQ(run.cases.size(), 3u);
  for (const CaseRecord& c : run.cases) {
    EXPECT_EQ(c.verdict, Verdict::kCrash) << c.name << ": " << c.message;
    EXPECT_THAT(c.message, HasSubstr("the adapter closed its output"));
  }
}

TEST_F(AdapterGateTest, ALateDuplicateReplyIsDiscarded) {
  auto [rc, run] = Run("duplicate_load");
  EXPECT_EQ(rc, 0);
  ASSERT_EQ(run.cases.size(), 3u);
  for (const CaseRecord& c : run.cases) {
    EXPECT_EQ(c.verdict, Verdict::kPass) << c.name << ": " << c.message;
  }
}

TEST_F(AdapterGateTest, AReplyOfTheWrongShapeFailsTheCaseNamingTheField) {
  const std::pair<const char*, const char*> faults[] = {
      {"dtype_string", ": outputs[0].dtype: expected an integer, got \"float\""},
      {"code_number", ": failed: code: expected a string, got 5 (a fault of the adapter)"},
      {"message_object", ": failed: message: expected a string, got an object (a fault of the"},
      {"nested_reply", "frame header: brackets nest deeper than 64 levels"},
      {"wrong_id", "where the request's id"}};
  for (const auto& [fault, words] : faults) {
    auto [rc, run] = Run(fault);
    EXPECT_EQ(rc, 1) << fault;
    ASSERT_EQ(run.cases.size(), 3u) << fault;
    for (const CaseRecord& c : run.cases) {
      EXPECT_EQ(c.verdict, Verdict::kFail) << fault << ": " << c.name << ": " << c.message;
      EXPECT_THAT(c.message, HasSubstr("adapter 'python3 "));
      EXPECT_THAT(c.message, HasSubstr("models/" + c.name));
      EXPECT_THAT(c.message, HasSubstr(words));
    }
  }
}

}  // namespace
}  // namespace onnxgate
