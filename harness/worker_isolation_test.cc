// run and gate in long-lived workers (--isolation worker) on the providers that misbehave on
// purpose (runtime/ep/testing/test_providers.h): a crash, a hang, a memory hog and a kernel that
// corrupts the process state each affect only their own case; every other case runs exactly once
// in the same workers and gets its right verdict; a runtime that needs a process per case gets
// one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class WorkerIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("worker_isolation_test");
    // Round uses std::nearbyint: a rounding mode left at FE_UPWARD turns 2.5 into 3.
    WriteMiniSuite(root_,
                   {{"a_relu", "Relu", Floats({-1, 2}), Floats({0, 2})},
                    {"b_round", "Round", Floats({2.5f, 0.5f, -2.5f, 1.2f}), Floats({2, 0, -2, 1})},
                    {"c_relu", "Relu", Floats({-3, 4}), Floats({0, 4})}});
    options_.root = root_;
    options_.suites = {"mini"};
    options_.jobs = 1;  // one worker serves every request, in order
    options_.json_path = root_ + "/out/run.json";
  }
  void TearDown() override { fs::remove_all(root_); }

  // The verdict and message of every record, by "<case> on <ep>"; each record once.
  std::map<std::string, CaseRecord> Run(const RuntimeUnderTest& runtime) {
    RunCommand(options_, runtime);
    auto run = ReadRunJson(options_.json_path);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    std::map<std::string, CaseRecord> by_name;
    if (!run.ok()) return by_name;
    for (const CaseRecord& c : run->cases) {
      EXPECT_TRUE(by_name.emplace(c.name + " on " + c.ep, c).second) << "twice: " << c.name;
    }
    EXPECT_EQ(run->isolation, IsolationName(options_.isolation));
    return by_name;
  }

  std::string root_;
  RunCommandOptions options_;
};

TEST_F(WorkerIsolationTest, ACorruptedProcessStateDoesNotReachTheNextCase) {
  auto runtime = CreateRuntimeWithTestProviders();
  ASSERT_TRUE(runtime.ok());
  options_.eps = {kTestCorruptStateProviderName, "ref"};
  std::map<std::string, CaseRecord> records = Run(**runtime);
  ASSERT_EQ(records.size(), 6u);
  EXPECT_EQ(records["a_relu on test-corrupt-state"].verdict, Verdict::kPass);
  EXPECT_EQ(records["b_round on ref"].verdict, Verdict::kPass) << records["b_round on ref"].message;
  EXPECT_EQ(records["c_relu on ref"].verdict, Verdict::kPass);
}

TEST_F(WorkerIsolationTest, CrashHangAndMemoryHogEachEndOnlyTheirOwnCase) {
  auto runtime = CreateRuntimeWithTestProviders();
  ASSERT_TRUE(runtime.ok());
  options_.selection.filters = {"a_relu", "c_relu"};
  // Filling 1 GiB page by page can take seconds on a loaded machine, so the memory hog gets a
  // generous timeout; the hang runs apart, with a short one.
  options_.eps = {kTestCrashProviderName, kTestMemoryHogProviderName, "ref"};
  options_.timeout_s = 60;
  options_.memory_limit_mb = 1024;
  std::map<std::string, CaseRecord> records = Run(**runtime);
  options_.eps = {kTestHangProviderName};
  options_.timeout_s = 1;
  records.merge(Run(**runtime));
  ASSERT_EQ(records.size(), 8u);
  for (const char* name : {"a_relu", "c_relu"}) {
    const std::string n = name;
    EXPECT_EQ(records[n + " on ref"].verdict, Verdict::kPass) << n;
    EXPECT_EQ(records[n + " on test-crash"].verdict, Verdict::kCrash);
    EXPECT_THAT(records[n + " on test-crash"].message, HasSubstr("SIGSEGV"));
    EXPECT_EQ(records[n + " on test-hang"].verdict, Verdict::kTimeout);
    EXPECT_EQ(records[n + " on test-memory-hog"].verdict, Verdict::kCrash);
    EXPECT_THAT(records[n + " on test-memory-hog"].message,
                HasSubstr("ran out of its memory limit of 1024 MiB"));
  }
}

TEST_F(WorkerIsolationTest, ARuntimeThatNeedsAProcessPerCaseGetsOne) {
  auto runtime = CreateRuntimeWithTestProviders({{"isolation", "case"}});
  ASSERT_TRUE(runtime.ok());
  ASSERT_TRUE((*runtime)->NeedsCaseIsolation());
  options_.eps = {kTestCorruptStateProviderName, "ref"};
  std::map<std::string, CaseRecord> records = Run(**runtime);
  ASSERT_EQ(records.size(), 6u);
  EXPECT_EQ(records["b_round on ref"].verdict, Verdict::kPass);
}

TEST_F(WorkerIsolationTest, CaseModeGivesTheSameVerdicts) {
  auto runtime = CreateRuntimeWithTestProviders();
  ASSERT_TRUE(runtime.ok());
  options_.eps = {kTestCorruptStateProviderName, kTestCrashProviderName, "ref"};
  std::map<std::string, Verdict> verdicts[2];
  int i = 0;
  for (Isolation mode : {Isolation::kWorker, Isolation::kCase}) {
    options_.isolation = mode;
    for (const auto& [name, record] : Run(**runtime)) verdicts[i][name] = record.verdict;
    ++i;
  }
  EXPECT_EQ(verdicts[0].size(), 9u);
  EXPECT_EQ(verdicts[0], verdicts[1]);
}

}  // namespace
}  // namespace onnxgate
