// The harness driving runtimes through the plugin ABI: a well-behaved plugin passes a suite;
// a plugin that returns garbage fails each case with one line naming the plugin, the case and
// the fault while the run goes on and every report is written; a plugin that crashes or hangs
// is contained by the worker process (CRASH, TIMEOUT).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

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
  std::pair<int, RunRecord> Run(const std::string& fault) {
    options_.runtime_spec = "plugin:" + TestPlugin(fault);
    auto runtime = LoadPluginRuntime(TestPlugin(fault), {});
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

}  // namespace
}  // namespace onnxgate
