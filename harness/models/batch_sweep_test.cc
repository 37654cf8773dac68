// sweep on the built-in runtime: a row-wise model gives each row's own result at every batch
// size; a model that mixes rows (normalizing over the batch) is caught at every size above 1.
#include "harness/models/batch_sweep.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "harness/harness_test_util.h"
#include "harness/models/fault_models_testing.h"
#include "runtime/base/atomic_file.h"
#include "runtime/builtin/builtin_runtime.h"
#include "runtime/ep/testing/test_providers.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

constexpr char kRowWise[] = R"(<ir_version: 8, opset_import: ["" : 17]>
rowwise (float[batch, 5] X) => (float[batch, 5] Y) {
  Y = Softmax <axis = 1> (X)
})";

// Subtracts the mean over the batch: each row's result depends on the other rows.
constexpr char kMixesRows[] = R"(<ir_version: 8, opset_import: ["" : 17]>
mixes (float[batch, 5] X) => (float[batch, 5] Y) {
  M = ReduceMean <axes = [0], keepdims = 1> (X)
  Y = Sub(X, M)
})";

class BatchSweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("sweep");
    fs::create_directories(dir_);
    runtime_ = CreateBuiltinRuntime();
    side_.runtime = runtime_.get();
    side_.label = "builtin ref";
  }
  void TearDown() override { fs::remove_all(dir_); }
  BatchSweepOptions Options(const std::string& name, const std::string& text) {
    BatchSweepOptions o;
    o.model_path = dir_ + "/" + name + ".onnxtxt";
    EXPECT_TRUE(WriteFileAtomically(o.model_path, text).ok());
    o.dim = "batch";
    o.sizes = {1, 4, 16};
    return o;
  }
  std::string dir_;
  std::unique_ptr<RuntimeUnderTest> runtime_;
  DiffSide side_;
};

TEST_F(BatchSweepTest, ARowWiseModelGivesEachRowItsOwnResult) {
  auto sweep = SweepBatch(side_, Options("rowwise", kRowWise));
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_EQ(sweep->rows.size(), 21u);  // 1 + 4 + 16 rows, one output
  EXPECT_TRUE(sweep->passed()) << RenderBatchSweepText(*sweep);
}

TEST_F(BatchSweepTest, AModelThatMixesRowsIsCaughtAboveBatchOne) {
  auto sweep = SweepBatch(side_, Options("mixes", kMixesRows));
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_FALSE(sweep->passed());
  for (const BatchRowCheck& r : sweep->rows) {
    EXPECT_EQ(r.comparison.passed, r.size == 1) << r.size << " row " << r.row;
  }
  EXPECT_NE(RenderBatchSweepText(*sweep).find("DIFFERS batch=4 row 0 output Y"), std::string::npos);
}

TEST_F(BatchSweepTest, ADimensionTheModelLacksIsAnError) {
  BatchSweepOptions o = Options("rowwise", kRowWise);
  o.dim = "seq";
  auto sweep = SweepBatch(side_, o);
  ASSERT_FALSE(sweep.ok());
  EXPECT_NE(sweep.status().message().find("no input dimension named 'seq'"), std::string::npos)
      << sweep.status().message();
}

// A size whose run crashes or hangs in its worker fails that size, and the sweep goes on.
TEST_F(BatchSweepTest, ACrashOrHangFailsItsSizeAndTheSweepGoesOn) {
  auto with_faults = CreateRuntimeWithTestProviders();
  ASSERT_TRUE(with_faults.ok());
  for (const char* ep : {kTestCrashProviderName, kTestHangProviderName}) {
    DiffSide side;
    side.runtime = with_faults->get();
    side.label = ep;
    side.load.providers = {ep};
    BatchSweepOptions o = Options("relu", kBatchReluModel);
    o.sizes = {1, 2};
    o.worker.timeout_s = 1;
    auto sweep = SweepBatch(side, o);
    ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
    EXPECT_FALSE(sweep->passed());
    ASSERT_EQ(sweep->rows.size(), 2u) << RenderBatchSweepText(*sweep);  // one failed row a size
    for (const BatchRowCheck& r : sweep->rows) {
      EXPECT_EQ(r.row, -1);
      const std::string expected =
          std::string("the run at batch=") + std::to_string(r.size) + " on " + ep +
          (ep == std::string(kTestCrashProviderName) ? " crashed: killed by SIGSEGV while running "
                                                     : " timed out after ");
      EXPECT_NE(r.comparison.summary.find(expected), std::string::npos) << r.comparison.summary;
    }
  }
}

TEST_F(BatchSweepTest, ALoopThatNeverEndsOnRefFailsEachSize) {
  BatchSweepOptions o = Options("endless", kEndlessLoopModel);
  o.sizes = {1, 2};
  o.worker.timeout_s = 1;
  auto sweep = SweepBatch(side_, o);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  ASSERT_EQ(sweep->rows.size(), 2u);
  EXPECT_NE(sweep->rows[1].comparison.summary.find("the run at batch=2 on builtin ref timed out"),
            std::string::npos)
      << sweep->rows[1].comparison.summary;
  EXPECT_NE(RenderBatchSweepText(*sweep).find("DIFFERENT"), std::string::npos);
}

TEST_F(BatchSweepTest, WithoutIsolationTheSweepRunsInThisProcessAlike) {
  BatchSweepOptions o = Options("rowwise", kRowWise);
  o.worker.isolation = Isolation::kNone;
  auto sweep = SweepBatch(side_, o);
  ASSERT_TRUE(sweep.ok()) << sweep.status().ToString();
  EXPECT_EQ(sweep->rows.size(), 21u);
  EXPECT_TRUE(sweep->passed());
}

TEST(SliceRowTest, TakesOneRowOfAnyAxis) {
  Tensor t = Tensor::FromVector<int32_t>(Shape({2, 3}), {0, 1, 2, 3, 4, 5});
  auto row = SliceRow(t, 0, 1);
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(row->shape(), Shape({1, 3}));
  EXPECT_EQ(row->data<int32_t>()[0], 3);
  auto column = SliceRow(t, 1, 2);
  ASSERT_TRUE(column.ok());
  EXPECT_EQ(column->shape(), Shape({2, 1}));
  EXPECT_EQ(column->data<int32_t>()[1], 5);
  EXPECT_FALSE(SliceRow(t, 0, 2).ok());
  EXPECT_FALSE(SliceRow(t, 2, 0).ok());
}

}  // namespace
}  // namespace onnxgate
