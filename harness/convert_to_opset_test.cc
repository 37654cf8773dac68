// run --convert-to-opset on the built-in runtime: each case's model runs as ONNX's version
// converter brought it to the target opset, judged by the original's golden, and the record
// shows the converted op versions; a model already past the target is SKIP with the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/builtin/builtin_runtime.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ConvertToOpsetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("convert_to_opset_test");
    WriteMiniSuite(root_, {{"relu", "Relu", Floats({-1, 2}), Floats({0, 2})}});
    runtime_ = CreateBuiltinRuntime();
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/30);
  }
  void TearDown() override { fs::remove_all(root_); }

  CaseRecord RunAt(int opset, int want_exit) {
    options_.convert_to_opset = opset;
    EXPECT_EQ(RunCommand(options_, *runtime_), want_exit);
    auto run = ReadRunJson(options_.json_path);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    EXPECT_EQ(run.ok() ? run->cases.size() : 0u, 1u);
    return run.ok() && !run->cases.empty() ? run->cases[0] : CaseRecord{};
  }

  std::string root_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
  RunCommandOptions options_;
};

TEST_F(ConvertToOpsetTest, ACaseRunsAtTheTargetOpsetWithItsConvertedOpVersions) {
  const CaseRecord c = RunAt(21, 0);
  EXPECT_EQ(c.verdict, Verdict::kPass) << c.message;
  EXPECT_EQ(c.opset_imports.at(""), 21);
  EXPECT_EQ(c.op_versions.at("Relu"), 14);
  EXPECT_THAT(c.reproducer, HasSubstr("--convert-to-opset 21"));
}

TEST_F(ConvertToOpsetTest, AModelPastTheTargetIsSkippedWithTheReason) {
  const CaseRecord c = RunAt(7, 0);
  EXPECT_EQ(c.verdict, Verdict::kSkip);
  EXPECT_THAT(c.message, HasSubstr("not converted to opset 7"));
  EXPECT_THAT(c.message, HasSubstr("later than the target 7"));
}

TEST_F(ConvertToOpsetTest, AnOpsetONNXDoesNotKnowIsRefused) {
  options_.convert_to_opset = 99;
  EXPECT_EQ(RunCommand(options_, *runtime_), 2);
}

}  // namespace
}  // namespace onnxgate
