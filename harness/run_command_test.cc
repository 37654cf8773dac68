// Tests of the run/gate driver against a gmock runtime: verdicts, exit codes, reports,
// expectations, and CRASH/TIMEOUT containment in worker processes.
#include "harness/run_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <thread>

#include "harness/harness_test_util.h"
#include "harness/mock_runtime.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::NiceMock;
using ::testing::Return;

Value Floats(std::vector<float> v) {
  Shape s({static_cast<int64_t>(v.size())});
  return Value::FromTensor(Tensor::FromVector<float>(s, v));
}

// A model that answers Run with `behaviour`.
std::unique_ptr<LoadedModel> Model(std::function<StatusOr<std::vector<Value>>()> behaviour) {
  auto m = std::make_unique<NiceMock<MockLoadedModel>>();
  ON_CALL(*m, input_names()).WillByDefault(Return(std::vector<std::string>{"X"}));
  ON_CALL(*m, output_names()).WillByDefault(Return(std::vector<std::string>{"Y"}));
  ON_CALL(*m, placements()).WillByDefault(Return(std::vector<NodePlacement>{{"n0", "Relu", "", 13, "ref", {}}}));
  ON_CALL(*m, Run(_)).WillByDefault([behaviour](const std::vector<NamedValue>&) { return behaviour(); });
  return m;
}

class RunCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::path(::testing::TempDir()) / "run_command_test").string();
    WriteMiniSuite(root_, {{"pass", "Relu", Floats({-1, 2}), Floats({0, 2})},
                           {"wrong", "Relu", Floats({-1, 2}), Floats({0, 2.5f})},
                           {"declined", "Relu", Floats({1}), Floats({1})},
                           {"stale", "Relu", Floats({1}), Floats({1}), true},
                           {"crash", "Relu", Floats({1}), Floats({1})},
                           {"hang", "Relu", Floats({1}), Floats({1})}});
    ON_CALL(runtime_, name()).WillByDefault(Return("mock"));
    ON_CALL(runtime_, providers()).WillByDefault(Return(std::vector<std::string>{"ref"}));
    ON_CALL(runtime_, Claims(_)).WillByDefault([](const std::string& ep) -> StatusOr<std::vector<OpClaim>> {
      if (ep == "ref") return std::vector<OpClaim>{};
      return NotFound("no provider " + ep);
    });
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault([](const std::string& path, const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
          std::string name = fs::path(path).stem().string();
          if (name == "declined") return Unimplemented("no kernel for Relu-13 with T=float");
          if (name == "wrong") return Model([] { return std::vector<Value>{Floats({0, 2})}; });
          if (name == "crash") return Model([]() -> StatusOr<std::vector<Value>> { std::raise(SIGSEGV); return Internal("unreachable"); });
          if (name == "hang") return Model([]() -> StatusOr<std::vector<Value>> { for (;;) std::this_thread::sleep_for(std::chrono::seconds(1)); });
          return Model([] { return std::vector<Value>{Floats({0, 2})}; });
        });
    options_.root = root_;
    options_.suites = {"mini"};
    options_.timeout_s = 2;
    options_.jobs = 2;
    options_.json_path = root_ + "/out/run.json";
    options_.junit_path = root_ + "/out/run.xml";
    options_.markdown_path = root_ + "/out/run.md";
  }

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
  EXPECT_THAT(wrong.reproducer, HasSubstr("--filter wrong"));
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
      {"case": "decl*", "status": "unsupported", "reason": "no Relu kernel"}]})").ok());
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(Case(*run, "wrong").verdict, Verdict::kXfail);
  EXPECT_EQ(Case(*run, "wrong").expectation_reason, "known numerics bug");

  ASSERT_TRUE(WriteFileAtomically(path, R"({"ep": "ref", "entries": [
      {"case": "pass", "status": "xfail", "reason": "was broken"},
      {"case": "wrong", "status": "xfail", "reason": "known"},
      {"case": "declined", "status": "unsupported", "reason": "no kernel"}]})").ok());
  EXPECT_EQ(RunCommand(options_, runtime_), 1);
  run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(Case(*run, "pass").verdict, Verdict::kXpass);
  EXPECT_THAT(Case(*run, "pass").message, HasSubstr("expectations update"));
  options_.strict = false;
  EXPECT_EQ(RunCommand(options_, runtime_), 0);
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

}  // namespace
}  // namespace onnxgate
