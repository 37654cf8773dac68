// The onnx-node gate as a release gate: with one of ref's expectations deleted it fails naming
// exactly that case; against a kernel broken on purpose: the test-broken-relu provider is ref
// with a Relu that lets negative values through. Judged by ref's expectations, the gate must
// fail on exactly the cases whose models use Relu (and that ref's expectations do not already
// cover), except those where Relu never sees a negative value, and on nothing else.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "conformance/expectations.h"
#include "harness/run_command.h"
#include "harness/suite.h"
#include "reports/json_writer.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

// Cases that use Relu only to clamp a value that is never negative in their data (the trip count
// of Range's expanded form), so a Relu that passes negatives through cannot change them.
const std::set<std::string> kReluNeverSeesANegative = {
    "test_range_float_type_positive_delta_expanded",
    "test_range_int32_type_negative_delta_expanded",
};

TEST(BrokenKernelGateTest, GateFailsOnExactlyTheCasesThatUseTheBrokenOp) {
  const std::string root = ONNXGATE_SOURCE_DIR;
  const fs::path work = fs::path(::testing::TempDir()) / "broken_kernel_gate_test";
  fs::remove_all(work);
  fs::create_directories(work / "expectations");
  auto expectations = LoadExpectations(root + "/conformance/expectations/ref.json");
  ASSERT_TRUE(expectations.ok()) << expectations.status().ToString();
  expectations->ep = "test-broken-relu";
  ASSERT_TRUE(
      WriteExpectations((work / "expectations/test-broken-relu.json").string(), *expectations)
          .ok());

  auto suite = LoadSuite(root + "/suites", "onnx-node-1.12");
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  std::set<std::string> uses_relu;
  for (const SuiteCase& c : suite->cases) {
    CaseRecord as_record;
    as_record.name = c.name;
    as_record.suite = "onnx-node-1.12";
    as_record.opset_imports = c.opset_imports;
    const bool relu = std::find(c.op_types.begin(), c.op_types.end(), "Relu") != c.op_types.end();
    if (relu && expectations->Find(as_record) == nullptr &&
        kReluNeverSeesANegative.count(c.name) == 0) {
      uses_relu.insert(c.name);
    }
  }
  ASSERT_FALSE(uses_relu.empty());

  RunCommandOptions o;
  o.root = root;
  o.suites = {"onnx-node-1.12"};
  o.eps = {"test-broken-relu"};
  o.jobs = 2;
  o.apply_expectations = true;
  o.expectations_dir = (work / "expectations").string();
  o.json_path = (work / "run.json").string();
  std::unique_ptr<RuntimeUnderTest> runtime = CreateBuiltinRuntime(BuiltinAndTestProviderEntries());
  EXPECT_EQ(RunCommand(o, *runtime), 1);

  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  std::set<std::string> unexpected;
  for (const CaseRecord& r : run->cases) {
    if (IsUnexpected(r, /*strict=*/true)) {
      unexpected.insert(r.name);
      EXPECT_EQ(r.verdict, Verdict::kFail) << r.name << ": " << r.message;
    }
    if (kReluNeverSeesANegative.count(r.name) != 0) {
      EXPECT_EQ(r.verdict, Verdict::kPass) << r.name << ": " << r.message;
    }
  }
  EXPECT_EQ(unexpected, uses_relu);
}

TEST(OnnxNodeGateTest, DeletingAnExpectationFailsNamingThatCase) {
  const std::string root = ONNXGATE_SOURCE_DIR;
  const fs::path work = fs::path(::testing::TempDir()) / "deleted_expectation_test";
  fs::remove_all(work);
  fs::create_directories(work / "expectations");
  auto expectations = LoadExpectations(root + "/conformance/expectations/ref.json");
  ASSERT_TRUE(expectations.ok()) << expectations.status().ToString();
  auto& entries = expectations->entries;
  const auto before = entries.size();
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [](const Expectation& e) {
                                 return e.case_pattern == "test_bernoulli" &&
                                        e.suite == "onnx-node-1.12";
                               }),
                entries.end());
  ASSERT_EQ(entries.size(), before - 1);
  ASSERT_TRUE(WriteExpectations((work / "expectations/ref.json").string(), *expectations).ok());

  RunCommandOptions o;
  o.root = root;
  o.suites = {"onnx-node-1.12"};
  o.selection.filters = {"test_bernoulli*"};
  o.jobs = 2;
  o.apply_expectations = true;
  o.expectations_dir = (work / "expectations").string();
  o.json_path = (work / "run.json").string();
  std::unique_ptr<RuntimeUnderTest> runtime = CreateBuiltinRuntime(BuiltinAndTestProviderEntries());
  ::testing::internal::CaptureStdout();
  const int exit_code = RunCommand(o, *runtime);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(exit_code, 1);

  auto run = ReadRunJson(o.json_path);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_EQ(run->cases.size(), 6u);
  std::set<std::string> unexpected;
  for (const CaseRecord& r : run->cases) {
    if (IsUnexpected(r, /*strict=*/true)) unexpected.insert(r.name);
  }
  EXPECT_EQ(unexpected, std::set<std::string>{"test_bernoulli"});
  EXPECT_THAT(out, ::testing::HasSubstr("onnx-node-1.12/test_bernoulli "));
}

}  // namespace
}  // namespace onnxgate
