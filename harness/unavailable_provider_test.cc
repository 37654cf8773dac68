// A provider that cannot run on this machine (its factory says Unavailable, as the opencl
// provider does without an OpenCL device) makes each of its cases SKIP with the runtime's reason,
// and the gate passes: nothing was judged. A provider that fails otherwise (Internal) is no
// reason to skip: its cases are UNRESOLVED and the gate fails. The other providers of the same
// runtime run as usual.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/run_command.h"
#include "reports/json_writer.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/ref/ref_provider.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class UnavailableProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("unavailable_provider_test");
    WriteMiniSuite(root_, {{"relu", "Relu", Floats({-1, 2}), Floats({0, 2})},
                           {"sigmoid", "Sigmoid", Floats({0}), Floats({0.5f})}});
    runtime_ = CreateBuiltinRuntime(
        {{kRefProviderName, CreateRefProvider},
         {"nodevice",
          []() -> StatusOr<std::shared_ptr<const ExecutionProvider>> {
            return Unavailable("no OpenCL device: no OpenCL platform is installed");
          }},
         {"broken", []() -> StatusOr<std::shared_ptr<const ExecutionProvider>> {
            return Internal("probing for an OpenCL device crashed the probe process");
          }}});
    options_ = MiniSuiteRunOptions(root_, /*timeout_s=*/30);
    options_.apply_expectations = true;
  }
  void TearDown() override { fs::remove_all(root_); }

  RunRecord Run(const std::vector<std::string>& eps, int want_exit) {
    options_.eps = eps;
    EXPECT_EQ(RunCommand(options_, *runtime_), want_exit);
    auto run = ReadRunJson(options_.json_path);
    EXPECT_TRUE(run.ok()) << run.status().ToString();
    return run.ok() ? *run : RunRecord{};
  }

  std::string root_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
  RunCommandOptions options_;
};

TEST_F(UnavailableProviderTest, CasesOnAProviderWithoutItsDeviceAreSkippedWithTheReason) {
  EXPECT_THAT(runtime_->ProviderAvailability("nodevice").message(), HasSubstr("no OpenCL device"));
  EXPECT_TRUE(runtime_->ProviderAvailability("ref").ok());
  EXPECT_TRUE(runtime_->ProviderAvailability("broken").ok());  // not a missing device
  EXPECT_TRUE(runtime_->ProviderAvailability("gpu").ok());     // unknown: Load says so

  RunRecord run = Run({"nodevice", "ref"}, 0);
  ASSERT_EQ(run.cases.size(), 4u);
  int skipped = 0;
  for (const CaseRecord& c : run.cases) {
    if (c.ep == "nodevice") {
      ++skipped;
      EXPECT_EQ(c.verdict, Verdict::kSkip) << c.name;
      EXPECT_THAT(c.message, HasSubstr("provider 'nodevice' is unavailable here: no OpenCL "
                                       "device: no OpenCL platform is installed"));
      EXPECT_TRUE(c.placements.empty());
    } else {
      EXPECT_EQ(c.verdict, Verdict::kPass) << c.name;
    }
  }
  EXPECT_EQ(skipped, 2);
}

TEST_F(UnavailableProviderTest, AProviderThatFailsOtherwiseIsUnresolvedNotSkipped) {
  RunRecord run = Run({"broken"}, 1);
  ASSERT_EQ(run.cases.size(), 2u);
  for (const CaseRecord& c : run.cases) {
    EXPECT_EQ(c.verdict, Verdict::kUnresolved) << c.name;
    EXPECT_THAT(c.message, HasSubstr("crashed the probe process"));
  }
}

}  // namespace
}  // namespace onnxgate
