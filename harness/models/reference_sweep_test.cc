// sweep against a reference on the built-in runtime: an attention model over its sequence
// dimension matches a reference at every size, though its positions mix (so the row check of a
// batch sweep fails it); a reference that computes another result is caught at every size, with
// the dimension named in the verdict.
#include "harness/models/reference_sweep.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/models/attention_model_testing.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

class ReferenceSweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("reference-sweep");
    fs::create_directories(dir_);
    auto runtime = CreateRuntimeWithTestProviders();
    ASSERT_TRUE(runtime.ok());
    runtime_ = std::move(runtime).value();
    side_ = {runtime_.get(), "builtin ref", {}};
    side_.load.providers = {"ref"};
    reference_ = side_;
    reference_.label = "builtin ref (again)";
    options_.model_path = dir_ + "/attention.onnxtxt";
    ASSERT_TRUE(WriteFileAtomically(options_.model_path, kSeqAttentionModel).ok());
    options_.dim = "seq";
    options_.sizes = {1, 4, 8};
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
  DiffSide side_, reference_;
  BatchSweepOptions options_;
};

TEST_F(ReferenceSweepTest, AnAttentionModelMatchesItsReferenceAtEverySequenceLength) {
  auto sweep = SweepAgainstReference(side_, reference_, options_);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_EQ(sweep->rows.size(), 3u);  // one output a size
  EXPECT_TRUE(sweep->passed()) << RenderBatchSweepText(*sweep);
  const std::string text = RenderBatchSweepText(*sweep);
  EXPECT_NE(text.find("each size against the run at that size on builtin ref (again)"),
            std::string::npos);
  EXPECT_NE(text.find("SAME: every size of seq gives the reference's result"), std::string::npos)
      << text;
  EXPECT_NE(RenderBatchSweepJson(*sweep).find("\"check\": \"reference\""), std::string::npos);
}

// Why a sequence needs a reference: its positions mix, so a row alone gives another result.
TEST_F(ReferenceSweepTest, TheRowCheckWouldFailTheSameCorrectModel) {
  auto rows = SweepBatch(side_, options_);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_FALSE(rows->passed());
  EXPECT_NE(RenderBatchSweepText(*rows).find("DIFFERENT: some size of seq changes a row's result"),
            std::string::npos);
}

TEST_F(ReferenceSweepTest, AReferenceWithAnotherResultIsCaughtAndTheVerdictNamesTheDimension) {
  reference_.load.providers = {kTestBrokenReluProviderName};
  reference_.label = "broken relu";
  auto sweep = SweepAgainstReference(side_, reference_, options_);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_FALSE(sweep->passed());
  const std::string text = RenderBatchSweepText(*sweep);
  EXPECT_NE(text.find("DIFFERS seq=8 output Y"), std::string::npos) << text;
  EXPECT_NE(text.find("DIFFERENT: some size of seq gives another result than broken relu"),
            std::string::npos)
      << text;
}

TEST_F(ReferenceSweepTest, ADimensionNoInputHasIsAnErrorNamingTheModel) {
  options_.dim = "width";
  auto sweep = SweepAgainstReference(side_, reference_, options_);
  ASSERT_FALSE(sweep.ok());
  EXPECT_NE(sweep.status().message().find("attention.onnxtxt: no input has a dimension named "
                                          "'width'"),
            std::string::npos)
      << sweep.status().message();
}

TEST_F(ReferenceSweepTest, AnEpTheReferenceLacksIsAnError) {
  reference_.load.providers = {"nosuch"};
  auto sweep = SweepAgainstReference(side_, reference_, options_);
  ASSERT_FALSE(sweep.ok());
  EXPECT_NE(sweep.status().message().find("builtin ref (again): unknown execution provider "
                                          "'nosuch'; this runtime offers: ref"),
            std::string::npos)
      << sweep.status().message();
}

TEST_F(ReferenceSweepTest, AHangingSizeFailsThatSizeAndTheSweepGoesOn) {
  reference_.load.providers = {kTestHangProviderName, "ref"};
  options_.sizes = {1, 2};
  options_.worker.timeout_s = 1;
  auto sweep = SweepAgainstReference(side_, reference_, options_);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  ASSERT_EQ(sweep->rows.size(), 2u) << RenderBatchSweepText(*sweep);
  for (const BatchRowCheck& r : sweep->rows) {
    EXPECT_FALSE(r.comparison.passed);
    EXPECT_NE(r.comparison.summary.find("timed out"), std::string::npos) << r.comparison.summary;
  }
}

TEST(IsBatchDimensionTest, TheUsualNamesOrTheOneGiven) {
  for (const char* name : {"batch", "Batch", "batch_size", "N", "n"}) {
    EXPECT_TRUE(IsBatchDimension(name, "")) << name;
  }
  for (const char* name : {"seq", "sequence", "height", "batches"}) {
    EXPECT_FALSE(IsBatchDimension(name, "")) << name;
  }
  EXPECT_TRUE(IsBatchDimension("B", "B"));
  EXPECT_FALSE(IsBatchDimension("batch", "B"));
}

}  // namespace
}  // namespace onnxgate
