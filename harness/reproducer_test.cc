// Tests of reproducer lines: every option that changes a verdict is carried, the case is selected
// by its exact name whatever it holds, and the line is safe to print and pastes back into sh.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/mock_runtime.h"
#include "harness/run_command.h"
#include "harness/suite.h"
#include "reports/json_writer.h"
#include "reports/text_escape.h"
#include "runtime/base/utf8.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::_;
using ::testing::HasSubstr;
using ::testing::NiceMock;
using ::testing::Return;

// The words /bin/sh passes to the program of `command` (the program's own name first).
std::vector<std::string> ShellWords(const std::string& command) {
  std::vector<std::string> words;
  FILE* pipe = ::popen(("printf '%s\\0' " + command).c_str(), "r");
  if (pipe == nullptr) return words;
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ::pclose(pipe);
  for (size_t start = 0, end; (end = out.find('\0', start)) != std::string::npos; start = end + 1) {
    words.push_back(out.substr(start, end - start));
  }
  return words;
}

// U+202E (right-to-left override) and U+200B (zero-width space).
const std::string kRlo = "\xE2\x80\xAE";
const std::string kZwsp = "\xE2\x80\x8B";

TEST(ReproducerTest, CarriesEveryOptionThatChangesTheVerdict) {
  RunCommandOptions options;
  options.executable = "/opt/onnxgate";
  options.root = "repo/";
  options.timeout_s = 2.5;
  options.memory_limit_mb = 1024;
  options.isolation = Isolation::kNone;
  options.tolerances_file = "tol.json";
  options.cli_tolerance.rtol = 1e-9;
  options.cli_tolerance.atol = 0.1;
  options.fallback = FallbackPolicy::kForbid;
  options.optimization_level = 2;
  options.convert_to_opset = 21;
  options.apply_expectations = true;
  options.expectations_dir = "exp";
  options.strict = false;
  RuntimeInRun runtime;
  runtime.spec = "plugin:lib/p.so";
  runtime.options = {"-threads=2", "mode=a b"};
  const std::string cwd = fs::current_path().string();
  const std::vector<std::string> expected = {"/opt/onnxgate",
                                             "--root",
                                             cwd + "/repo",
                                             "gate",
                                             "--suite",
                                             "smoke",
                                             "--case=smoke/relu",
                                             "--ep",
                                             "ref",
                                             "--runtime=plugin:" + cwd + "/lib/p.so",
                                             "--runtime-option=-threads=2",
                                             "--runtime-option=mode=a b",
                                             "--timeout",
                                             "2.5",
                                             "--memory-limit",
                                             "1024",
                                             "--isolation",
                                             "none",
                                             "--tolerances=" + cwd + "/tol.json",
                                             "--rtol",
                                             "1e-09",
                                             "--atol",
                                             "0.1",
                                             "--fallback",
                                             "forbid",
                                             "--optimization-level",
                                             "2",
                                             "--convert-to-opset",
                                             "21",
                                             "--expectations-dir=" + cwd + "/exp",
                                             "--no-strict"};
  EXPECT_EQ(ShellWords(ReproducerCommand(options, runtime, "smoke", "relu", "ref")), expected);

  // Defaults are left out; a run (not a gate) says run.
  RunCommandOptions plain;
  plain.root = "/r";
  const std::string line = ReproducerCommand(plain, RuntimeInRun{}, "smoke", "relu", "ref");
  EXPECT_EQ(line, "onnxgate --root /r run --suite smoke --case=smoke/relu --ep ref");
}

TEST(ReproducerTest, SelectsHostileNamesExactlyAndPrintsNothingATerminalObeys) {
  const std::vector<std::string> names = {"glob*",
                                          "-leading-dash",
                                          "it's",
                                          "a b",
                                          "[ab]?",
                                          "rlo" + kRlo + "fdp.exe" + kZwsp,
                                          "tab\tnewline\nesc\x1b[31m",
                                          "nl\n",
                                          "bad\xFF"
                                          "byte",
                                          "$(touch x)`id`",
                                          "caf\xC3\xA9"};
  RunCommandOptions options;
  options.root = "/r";
  for (const std::string& name : names) {
    const std::string line = ReproducerCommand(options, RuntimeInRun{}, "smoke", name, "ref");
    const std::vector<std::string> words = ShellWords(line);
    ASSERT_EQ(words.size(), 9u) << line;
    EXPECT_EQ(words[6], "--case=smoke/" + name) << line;
    auto exact = ParseExactCase(words[6].substr(std::string("--case=").size()));
    ASSERT_TRUE(exact.ok());
    EXPECT_EQ(exact->name, name);
    if (name != "nl\n") {
      EXPECT_EQ(EscapeForTerminal(line), line) << "nothing for a terminal to obey: " << line;
    }
  }
  const std::string rlo = ReproducerCommand(options, RuntimeInRun{}, "smoke", names[5], "ref");
  EXPECT_THAT(rlo, HasSubstr("'--case=smoke/rlo'\"$(printf '\\342\\200\\256')\"'fdp.exe'"));
}

// A suite whose case names are globs, options and bidi tricks, each beside a decoy its name would
// match as a glob or exclude as a --filter: every reproducer runs exactly its case.
class HostileNameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("reproducer_test");
    std::vector<MiniCase> cases;
    for (const std::string& name : kNames) {
      cases.push_back({name, "Relu", Floats({-1, 2}), Floats({0, 2.5f})});  // fails
      // The name is no ONNX identifier: the model names its graph "g".
      cases.back().model_bytes =
          "<ir_version: 8, opset_import: [\"\" : "
          "13]>\ng (float[N] X) => (float[N] Y) {\n"
          "  Y = Relu(X)\n}\n";
    }
    WriteMiniSuite(root_, cases);
    ON_CALL(runtime_, name()).WillByDefault(Return("mock"));
    ON_CALL(runtime_, version()).WillByDefault(Return("1.0"));
    ON_CALL(runtime_, providers()).WillByDefault(Return(std::vector<std::string>{"ref"}));
    ON_CALL(runtime_, Claims(_)).WillByDefault(Return(std::vector<OpClaim>{}));
    ON_CALL(runtime_, Load(_, _))
        .WillByDefault(
            [](const std::string&, const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
              auto m = std::make_unique<NiceMock<MockLoadedModel>>();
              ValueInfo x, y;
              x.name = "X";
              y.name = "Y";
              ON_CALL(*m, inputs()).WillByDefault(Return(std::vector<ValueInfo>{x}));
              ON_CALL(*m, outputs()).WillByDefault(Return(std::vector<ValueInfo>{y}));
              ON_CALL(*m, Run(_)).WillByDefault(Return(std::vector<Value>{Floats({0, 2})}));
              return std::unique_ptr<LoadedModel>(std::move(m));
            });
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/10);
  }
  void TearDown() override { fs::remove_all(root_); }

  const std::vector<std::string> kNames = {
      "glob*", "globber", "-leading-dash", "leading-dash", "rlo" + kRlo + "x" + kZwsp, "rlox"};
  std::string root_;
  NiceMock<MockRuntime> runtime_;
  RunCommandOptions options_;
};

TEST_F(HostileNameTest, EachReproducerRunsExactlyItsCase) {
  ::testing::internal::CaptureStdout();
  const int exit_code = RunCommand(options_, runtime_);
  std::fflush(stdout);
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(exit_code, 1);
  EXPECT_EQ(printed.find(kRlo), std::string::npos) << "U+202E printed raw";
  EXPECT_EQ(printed.find(kZwsp), std::string::npos) << "U+200B printed raw";
  EXPECT_THAT(printed, HasSubstr("mini/rlo\\u202ex\\u200b [ref]"));
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), kNames.size());
  for (const CaseRecord& c : run->cases) {
    EXPECT_THAT(printed, HasSubstr("    " + c.reproducer + "\n")) << "printed as in the report";
    const std::vector<std::string> words = ShellWords(c.reproducer);
    ASSERT_GE(words.size(), 7u) << c.reproducer;
    auto exact = ParseExactCase(words[6].substr(std::string("--case=").size()));
    ASSERT_TRUE(exact.ok()) << c.reproducer;
    RunCommandOptions one = options_;
    one.selection.cases = {*exact};
    ::testing::internal::CaptureStdout();
    EXPECT_EQ(RunCommand(one, runtime_), 1) << c.reproducer;
    ::testing::internal::GetCapturedStdout();
    auto alone = ReadRunJson(one.json_path);
    ASSERT_TRUE(alone.ok());
    ASSERT_EQ(alone->cases.size(), 1u) << c.reproducer;
    EXPECT_EQ(alone->cases[0].name, c.name);
  }
}

}  // namespace
}  // namespace onnxgate
