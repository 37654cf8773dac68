// What a runtime writes to stderr during a case lands in that case's record (JSON report,
// JUnit <system-err>) and not on the console, in worker processes and with --isolation none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/mock_runtime.h"
#include "harness/run_command.h"
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

// A model whose Run returns Relu of the mini suite's input.
std::unique_ptr<LoadedModel> ReluModel() {
  auto m = std::make_unique<NiceMock<MockLoadedModel>>();
  ValueInfo x, y;
  x.name = "X";
  y.name = "Y";
  ON_CALL(*m, inputs()).WillByDefault(Return(std::vector<ValueInfo>{x}));
  ON_CALL(*m, outputs()).WillByDefault(Return(std::vector<ValueInfo>{y}));
  ON_CALL(*m, Run(_)).WillByDefault([](const std::vector<NamedValue>&) {
    return StatusOr<std::vector<Value>>(std::vector<Value>{Floats({0, 2})});
  });
  return m;
}

class RuntimeLogTest : public ::testing::TestWithParam<Isolation> {
 protected:
  void SetUp() override {
    root_ = TestRootFor("runtime_log_test");
    WriteMiniSuite(root_, {{"chatty", "Relu", Floats({-1, 2}), Floats({0, 2})},
                           {"quiet", "Relu", Floats({-1, 2}), Floats({0, 2})}});
    ON_CALL(runtime_, name()).WillByDefault(Return("mock"));
    ON_CALL(runtime_, version()).WillByDefault(Return("1.0"));
    ON_CALL(runtime_, providers()).WillByDefault(Return(std::vector<std::string>{"ref"}));
    ON_CALL(runtime_, Claims(_)).WillByDefault(Return(std::vector<OpClaim>{}));
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault([](const std::string& path,
                          const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
          if (fs::path(path).stem() == "chatty") {
            std::fprintf(stderr, "W: chatty runtime: slow path\n");
            const ssize_t n = write(STDERR_FILENO, "E: raw write\n", 13);
            (void)n;
          }
          return ReluModel();
        });
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/30);
    options_.isolation = GetParam();
    options_.quiet = true;
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string root_;
  NiceMock<MockRuntime> runtime_;
  RunCommandOptions options_;
};

TEST_P(RuntimeLogTest, LandsInTheCasesRecordAndNeverOnTheConsole) {
  ::testing::internal::CaptureStderr();
  const int exit_code = RunCommand(options_, runtime_);
  const std::string console = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(exit_code, 0);
  EXPECT_THAT(console, Not(HasSubstr("chatty runtime")));
  EXPECT_THAT(console, Not(HasSubstr("raw write")));
  StatusOr<RunRecord> run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), 2u);
  for (const CaseRecord& c : run->cases) {
    EXPECT_EQ(c.runtime_log,
              c.name == "chatty" ? "W: chatty runtime: slow path\nE: raw write\n" : "")
        << c.name;
  }
  StatusOr<std::string> junit = ReadFile(options_.junit_path);
  ASSERT_TRUE(junit.ok());
  EXPECT_THAT(*junit, HasSubstr("<system-err>W: chatty runtime: slow path\nE: raw write\n"));
}

INSTANTIATE_TEST_SUITE_P(Isolations, RuntimeLogTest,
                         ::testing::Values(Isolation::kWorker, Isolation::kCase, Isolation::kNone),
                         [](const ::testing::TestParamInfo<Isolation>& info) {
                           return std::string(IsolationName(info.param));
                         });

}  // namespace
}  // namespace onnxgate
