// sweep against a golden recorded at each size: an attention model recorded on ref at seq 1, 4
// and 8 matches its golden at every size; a kernel that computes another result is caught at
// every size; a size the golden lacks and a golden of another model are errors naming the file.
#include "harness/models/golden_sweep.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/models/attention_model_testing.h"
#include "harness/models/recorder.h"
#include "runtime/base/atomic_file.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

class GoldenSweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = TestRootFor("golden-sweep");
    fs::create_directories(root_);
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok());
    runtime_ = std::move(runtime).value();
    side_ = {runtime_.get(), "builtin ref", {}};
    side_.load.providers = {"ref"};
    options_.model_path = root_ + "/attention.onnxtxt";
    ASSERT_TRUE(WriteFileAtomically(options_.model_path, kSeqAttentionModel).ok());
    options_.dim = "seq";
    options_.sizes = {1, 4, 8};
    RecordOptions r;
    r.model_path = options_.model_path;
    r.suite_name = "mine";
    r.repo_root = root_;
    r.dims = {{"seq", {1, 4, 8}}};
    r.load.providers = {"ref"};
    r.created = "2026-01-01T00:00:00Z";
    auto report = RecordCase(*runtime_, r);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    golden_ = report->golden_path;
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string root_, golden_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
  DiffSide side_;
  BatchSweepOptions options_;
};

TEST_F(GoldenSweepTest, ARecordedModelMatchesItsGoldenAtEverySize) {
  auto sweep = SweepAgainstGolden(side_, golden_, options_);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_EQ(sweep->rows.size(), 3u);
  EXPECT_TRUE(sweep->passed()) << RenderBatchSweepText(*sweep);
  EXPECT_NE(RenderBatchSweepText(*sweep).find("SAME: every size of seq gives the reference's"),
            std::string::npos);
}

TEST_F(GoldenSweepTest, AKernelWithAnotherResultIsCaughtAtEverySize) {
  side_.load.providers = {kTestBrokenReluProviderName};
  side_.label = "broken relu";
  auto sweep = SweepAgainstGolden(side_, golden_, options_);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_FALSE(sweep->passed());
  const std::string text = RenderBatchSweepText(*sweep);
  EXPECT_NE(text.find("DIFFERS seq=8 output Y"), std::string::npos) << text;
  EXPECT_NE(text.find("DIFFERENT: some size of seq gives another result than the golden"),
            std::string::npos)
      << text;
}

TEST_F(GoldenSweepTest, ASizeTheGoldenLacksIsAnErrorListingThoseItHas) {
  options_.sizes = {4, 16};
  auto sweep = SweepAgainstGolden(side_, golden_, options_);
  ASSERT_FALSE(sweep.ok());
  EXPECT_NE(sweep.status().message().find(
                "no data set at seq=16 (it has seq=1, seq=4, seq=8); record one with --dim seq="),
            std::string::npos)
      << sweep.status().message();
}

TEST_F(GoldenSweepTest, AGoldenOfAnotherModelIsRefused) {
  std::string other = kSeqAttentionModel;
  other.replace(other.find("Relu"), 4, "Abs");
  ASSERT_TRUE(WriteFileAtomically(options_.model_path, other).ok());
  auto sweep = SweepAgainstGolden(side_, golden_, options_);
  ASSERT_FALSE(sweep.ok());
  EXPECT_NE(sweep.status().message().find("recorded for other model files than"), std::string::npos)
      << sweep.status().message();
}

}  // namespace
}  // namespace onnxgate
