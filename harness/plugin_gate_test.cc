// The harness driving runtimes through the plugin ABI: a well-behaved plugin passes a suite;
// a plugin that returns garbage fails each case with one line naming the plugin, the case and
// the fault while the run goes on and every report is written; a plugin that crashes or hangs
// is contained by the worker process (CRASH, TIMEOUT). The process running the gate never
// opens the plugin: its workers do (and, without isolation, the process itself).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/plugin/plugin_runtime.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string TestPlugin(const std::string& fault) {
  return std::string(ONNXGATE_TEST_PLUGIN_DIR) + "/libonnxgate_test_plugin_" + fault + ".so";
}

class PluginGateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("onnxgate_plugin_gate");
    fs::remove_all(root_);
    WriteMiniSuite(root_, {{"positive", "Relu", Floats({1, 2}), Floats({1, 2})},
                           {"negative", "Relu", Floats({-1, 2}), Floats({0, 2})}});
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/2);
    options_.eps = {"relu-cpu"};
  }
  void TearDown() override { fs::remove_all(root_); }

  // Runs the suite on the plugin built with `fault`; returns the exit code and the report.
  std::pair<int, RunRecord> Run(const std::string& fault) { return RunPlugin(TestPlugin(fault)); }

  std::pair<int, RunRecord> RunPlugin(const std::string& path) {
    options_.runtime_spec = "plugin:" + path;
    auto runtime = LoadPluginRuntime(path, {});
    EXPECT_TRUE(runtime.ok()) << runtime.status().ToString();
    if (!runtime.ok()) return {-1, {}};
    const int rc = RunCommand(options_, **runtime);
    auto run = ReadRunJson(options_.json_path);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    EXPECT_TRUE(fs::exists(options_.junit_path));
    EXPECT_TRUE(fs::exists(options_.markdown_path));
    return {rc, run.ok() ? *run : RunRecord{}};
  }

  std::string root_;
  RunCommandOptions options_;
};

TEST_F(PluginGateTest, AWellBehavedPluginPassesAndIsNamedInTheReport) {
  auto [rc, run] = Run("none");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(run.runtime_name, "relu-plugin");
  EXPECT_EQ(run.runtime_version, "1.0-test");
  ASSERT_EQ(run.cases.size(), 2u);
  for (const CaseRecord& c : run.cases) EXPECT_EQ(c.verdict, Verdict::kPass) << c.message;
}

TEST_F(PluginGateTest, GarbageFromAPluginFailsEachCaseWithTheFaultNamed) {
  const std::pair<const char*, const char*> faults[] = {
      {"output_count", "returned 2 outputs; the model has 1"},
      {"null_buffer", "output 'Y': null data for float[2]"},
      {"mis_sized", "output 'Y': data_bytes is 4 for float[2]; expected 8"},
      {"undeclared_type", "is of element type int32 but the plugin declares float"},
      {"no_message", "and no message (a fault of the plugin)"}};
  for (const auto& [fault, expected] : faults) {
    auto [rc, run] = Run(fault);
    EXPECT_EQ(rc, 1) << fault;
    ASSERT_EQ(run.cases.size(), 2u) << fault;
    for (const CaseRecord& c : run.cases) {
      EXPECT_EQ(c.verdict, Verdict::kFail) << fault << ": " << c.name;
      EXPECT_THAT(c.message, HasSubstr("plugin " + TestPlugin(fault))) << fault;
      EXPECT_THAT(c.message, HasSubstr(c.name)) << fault << ": the message names the case";
      EXPECT_THAT(c.message, HasSubstr(expected)) << fault;
      EXPECT_THAT(c.reproducer, HasSubstr(" --runtime=plugin:" + TestPlugin(fault)));
    }
  }
}

TEST_F(PluginGateTest, APluginThatCrashesOrHangsIsContainedInItsWorker) {
  auto [crash_rc, crashed] = Run("crash");
  EXPECT_EQ(crash_rc, 1);
  ASSERT_EQ(crashed.cases.size(), 2u);
  for (const CaseRecord& c : crashed.cases) {
    EXPECT_EQ(c.verdict, Verdict::kCrash) << c.name;
    EXPECT_THAT(c.message, HasSubstr("SIGSEGV"));
  }
  auto [hang_rc, hung] = Run("hang");
  EXPECT_EQ(hang_rc, 1);
  ASSERT_EQ(hung.cases.size(), 2u);
  for (const CaseRecord& c : hung.cases) EXPECT_EQ(c.verdict, Verdict::kTimeout) << c.name;
}

// The pids of the processes that opened the open_log hostile plugin while `run` ran.
std::vector<pid_t> PidsOpeningThePluginDuring(const std::string& root,
                                              const std::function<void()>& run) {
  const std::string log = root + "/open.log";
  setenv("ONNXGATE_TEST_PLUGIN_OPEN_LOG", log.c_str(), 1);
  run();
  unsetenv("ONNXGATE_TEST_PLUGIN_OPEN_LOG");
  std::ifstream in(log);
  std::vector<pid_t> pids;
  for (pid_t pid; in >> pid;) pids.push_back(pid);
  return pids;
}

TEST_F(PluginGateTest, ThePluginIsOpenedInTheWorkersNeverInTheProcessRunningTheGate) {
  const std::string plugin =
      std::string(ONNXGATE_TEST_PLUGIN_DIR) + "/libonnxgate_hostile_plugin_open_log.so";
  std::vector<pid_t> pids = PidsOpeningThePluginDuring(root_, [&] {
    auto [rc, run] = RunPlugin(plugin);
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(run.runtime_name, "relu-plugin");
  });
  // The probe and one worker per case; never this process.
  EXPECT_EQ(pids.size(), 3u);
  EXPECT_EQ(std::count(pids.begin(), pids.end(), getpid()), 0);

  // Without isolation the cases run here, so the plugin is opened here, once.
  options_.isolation = Isolation::kNone;
  fs::remove(root_ + "/open.log");
  pids = PidsOpeningThePluginDuring(root_, [&] {
    auto [rc, run] = RunPlugin(plugin);
    EXPECT_EQ(rc, 0);
    ASSERT_EQ(run.cases.size(), 2u);
    for (const CaseRecord& c : run.cases) EXPECT_EQ(c.verdict, Verdict::kPass) << c.message;
  });
  EXPECT_EQ(std::count(pids.begin(), pids.end(), getpid()), 1);
}

}  // namespace
}  // namespace onnxgate
