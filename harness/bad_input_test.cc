// The harness on the built-in runtime with broken tests: each bad input becomes an UNRESOLVED
// case with one line naming the file, the object and what is wrong, and the reports stay
// complete. Also a deliberately wrong golden value, which must FAIL naming the element.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>

#include "golden/golden_file.h"
#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

// A binary Add model Y = X + W whose initializer "W" lives in external data at `location`.
std::string ModelWithExternalData(const std::string& location) {
  return OneNodeModelBytes("Add", 1, location);
}

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    runtime_ = CreateBuiltinRuntime(BuiltinAndTestProviderEntries());  // ref, test-crash, ...
    root_ = TestRootFor("bad_input_test");  // CTest runs this file's tests in parallel
    const std::string checker_fails =
        "<ir_version: 8, opset_import: [\"\" : 13]>\nchecker_fails (float[N] X) => (float[N] Y) {\n"
        "  Y = Relu(X)\n  Z = Relu(X)\n  Y = Relu(Z)\n}\n";
    MiniCase truncated{"truncated_model", "Relu", Floats({1}), Floats({1})};
    truncated.model_bytes = ModelWithExternalData("w.bin").substr(0, 21);
    truncated.model_extension = ".onnx";
    MiniCase not_onnx{"not_onnx", "Relu", Floats({1}), Floats({1})};
    not_onnx.model_bytes = "this is a text file, not a model\n";
    not_onnx.model_extension = ".onnx";
    MiniCase checker{"checker_fails", "Relu", Floats({1}), Floats({1})};
    checker.model_bytes = checker_fails;
    MiniCase outside{"external_outside", "Add", Floats({1}), Floats({1})};
    outside.model_bytes = ModelWithExternalData("../../secret.bin");
    outside.model_extension = ".onnx";
    MiniCase no_input{"golden_missing_input", "Relu", Floats({1}), Floats({1})};
    no_input.omit_input = true;
    WriteMiniSuite(root_, {{"relu_ok", "Relu", Floats({-1, 2}), Floats({0, 2})},
                           {"wrong_golden", "Relu", Floats({-1, 2, 3}), Floats({0, 2, 3.5f})},
                           truncated,
                           not_onnx,
                           checker,
                           outside,
                           no_input,
                           {"stale_golden", "Relu", Floats({1}), Floats({1}), true},
                           {"truncated_golden", "Relu", Floats({1}), Floats({1})},
                           {"not_hdf5_golden", "Relu", Floats({1}), Floats({1})}});
    fs::path golden_dir = fs::path(root_) / "golden" / "data" / "mini";
    std::string whole = *ReadFile((golden_dir / "truncated_golden.h5").string());
    EXPECT_TRUE(
        WriteFileAtomically((golden_dir / "truncated_golden.h5").string(), whole.substr(0, 700))
            .ok());
    EXPECT_TRUE(
        WriteFileAtomically((golden_dir / "not_hdf5_golden.h5").string(), "plain text\n").ok());
    options_.root = root_;
    options_.suites = {"mini"};
    options_.jobs = 2;
    options_.json_path = root_ + "/out/run.json";
    options_.junit_path = root_ + "/out/run.xml";
  }

  CaseRecord Case(const std::string& name) {
    for (const CaseRecord& c : run_.cases) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << "no case " << name;
    return {};
  }

  void TearDown() override { fs::remove_all(root_); }

  std::unique_ptr<RuntimeUnderTest> runtime_;
  std::string root_;
  RunCommandOptions options_;
  RunRecord run_;
};

TEST_F(BadInputTest, EachBadInputIsUnresolvedWithAClearLine) {
  EXPECT_EQ(RunCommand(options_, *runtime_), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  run_ = *run;
  ASSERT_EQ(run_.cases.size(), 10u);
  EXPECT_EQ(Case("relu_ok").verdict, Verdict::kPass);

  CaseRecord wrong = Case("wrong_golden");
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_THAT(wrong.message, AllOf(HasSubstr("'Y'"), HasSubstr("[2]"), HasSubstr("3.5")));

  struct Expect {
    const char* name;
    std::vector<const char*> words;
  };
  for (const Expect& e : std::vector<Expect>{
           {"truncated_model", {"truncated_model.onnx"}},
           {"not_onnx", {"not_onnx.onnx"}},
           {"checker_fails", {"checker_fails.onnxtxt"}},
           {"external_outside", {"external_outside.onnx", "W", "../../secret.bin"}},
           {"golden_missing_input", {"golden_missing_input.h5", "/sets/0/inputs", "'X'"}},
           {"stale_golden", {"stale_golden.h5", "stale"}},
           {"truncated_golden", {"truncated_golden.h5"}},
           {"not_hdf5_golden", {"not_hdf5_golden.h5"}}}) {
    CaseRecord c = Case(e.name);
    EXPECT_EQ(c.verdict, Verdict::kUnresolved) << e.name << ": " << c.message;
    EXPECT_EQ(c.message.find('\n'), std::string::npos) << e.name << ": one line";
    for (const char* w : e.words) EXPECT_THAT(c.message, HasSubstr(w)) << e.name;
  }
  auto junit = ReadFile(options_.junit_path);
  ASSERT_TRUE(junit.ok());
  size_t testcases = 0;
  for (size_t p = junit->find("<testcase"); p != std::string::npos;
       p = junit->find("<testcase", p + 1))
    ++testcases;
  EXPECT_EQ(testcases, 10u);
}

TEST_F(BadInputTest, CrashingAndHangingKernelsAreContained) {
  options_.selection.filters = {"relu_ok"};
  options_.timeout_s = 2;
  options_.eps = {"test-crash", "test-hang", "ref"};
  EXPECT_EQ(RunCommand(options_, *runtime_), 1);
  auto run = ReadRunJson(options_.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), 3u);
  EXPECT_EQ(run->cases[0].verdict, Verdict::kCrash);
  EXPECT_THAT(run->cases[0].message, HasSubstr("SIGSEGV while running set 0 of "));
  EXPECT_THAT(run->cases[0].message, HasSubstr("relu_ok.onnxtxt on test-crash"));
  EXPECT_THAT(run->cases[1].message, HasSubstr("on test-hang"));
  EXPECT_EQ(run->cases[1].verdict, Verdict::kTimeout);
  EXPECT_EQ(run->cases[2].verdict, Verdict::kPass) << "the run goes on after a crash and a hang";
}

TEST_F(BadInputTest, UnknownEpIsAUsageError) {
  options_.eps = {"no-such-ep"};
  EXPECT_EQ(RunCommand(options_, *runtime_), 2);
}

}  // namespace
}  // namespace onnxgate
