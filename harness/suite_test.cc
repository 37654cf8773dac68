// Tests of suite.json loading: files a suite names stay inside the suite folder (models) or the
// repository's golden/ (goldens), by path and through symbolic links; tolerances and metric
// thresholds are bounded.
#include "harness/suite.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class SuiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("suite_test_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "suites" / "s" / "models");
    fs::create_directories(root_ / "golden" / "data" / "s");
    fs::create_directories(root_ / "outside");
  }
  void TearDown() override { fs::remove_all(root_); }

  StatusOr<Suite> Load(const std::string& model, const std::string& golden,
                       const std::string& extra = "") {
    const std::string json = "{\"name\": \"s\", \"cases\": [{\"name\": \"c\", \"model\": \"" +
                             model + "\", \"golden\": \"" + golden + "\"" + extra + "}]}";
    EXPECT_TRUE(WriteFileAtomically((root_ / "suites" / "s" / "suite.json").string(), json).ok());
    return LoadSuite((root_ / "suites").string(), "s");
  }

  fs::path root_;
};

TEST_F(SuiteTest, FilesInsideTheirFoldersLoad) {
  auto suite = Load("models/c.onnx", "../../golden/data/s/c.h5");
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  EXPECT_EQ(suite->cases[0].model_path, (root_ / "suites/s/models/c.onnx").string());
  EXPECT_EQ(suite->cases[0].golden_path, (root_ / "golden/data/s/c.h5").string());
}

TEST_F(SuiteTest, AModelOutsideTheSuiteFolderIsRefused) {
  auto suite = Load("../../outside/secret.onnx", "../../golden/data/s/c.h5");
  ASSERT_FALSE(suite.ok());
  EXPECT_THAT(suite.status().message(),
              HasSubstr("cases[0].model: '../../outside/secret.onnx' leads outside the "
                        "suite folder"));
  EXPECT_FALSE(Load("/etc/passwd", "../../golden/data/s/c.h5").ok());
}

TEST_F(SuiteTest, AGoldenOutsideGoldenIsRefused) {
  auto suite = Load("models/c.onnx", "../../outside/c.h5");
  ASSERT_FALSE(suite.ok());
  EXPECT_THAT(suite.status().message(), HasSubstr(".golden: '../../outside/c.h5' leads outside"));
}

TEST_F(SuiteTest, ASymlinkedModelFolderLeadingOutsideIsRefused) {
  fs::create_directory_symlink(root_ / "outside", root_ / "suites" / "s" / "linked");
  auto suite = Load("linked/secret.onnx", "../../golden/data/s/c.h5");
  ASSERT_FALSE(suite.ok());
  EXPECT_THAT(suite.status().message(), HasSubstr("leads outside the suite folder"));
}

TEST_F(SuiteTest, ToleranceOutsideItsBoundsIsRefused) {
  auto suite =
      Load("models/c.onnx", "../../golden/data/s/c.h5", ", \"tolerance\": {\"rtol\": 1e300}");
  ASSERT_FALSE(suite.ok());
  EXPECT_THAT(suite.status().message(),
              HasSubstr("cases[0].tolerance: rtol must be a finite number in [0, 1]"));
}

TEST_F(SuiteTest, MetricThresholdsAreReadAndBounded) {
  auto suite = Load("models/c.onnx", "../../golden/data/s/c.h5",
                    ", \"metrics\": {\"cosine\": 0.999, \"top1\": 0.99}");
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  ASSERT_EQ(suite->cases[0].metrics.items.size(), 2u);
  EXPECT_EQ(suite->cases[0].metrics.items[0].name, "cosine");
  EXPECT_EQ(suite->cases[0].metrics.items[1].limit, 0.99);
  auto above =
      Load("models/c.onnx", "../../golden/data/s/c.h5", ", \"metrics\": {\"cosine\": 1.5}");
  ASSERT_FALSE(above.ok());
  EXPECT_THAT(above.status().message(), HasSubstr("suite.json"));
  EXPECT_THAT(above.status().message(), HasSubstr("cases[0].metrics.cosine"));
  EXPECT_THAT(above.status().message(), HasSubstr("[-1, 1], got 1.5"));
  auto negative_k =
      Load("models/c.onnx", "../../golden/data/s/c.h5", ", \"metrics\": {\"top-1\": 0.5}");
  ASSERT_FALSE(negative_k.ok());
  EXPECT_THAT(negative_k.status().message(), HasSubstr("needs a positive K"));
  auto not_a_number =
      Load("models/c.onnx", "../../golden/data/s/c.h5", ", \"metrics\": {\"cosine\": \"high\"}");
  EXPECT_FALSE(not_a_number.ok());
}

TEST_F(SuiteTest, ASuiteFileThatNeverEndsIsRefused) {
  fs::remove_all(root_ / "suites" / "s");
  fs::create_directories(root_ / "suites" / "s");
  ASSERT_EQ(::mkfifo((root_ / "suites" / "s" / "suite.json").c_str(), 0600), 0);
  auto suite = LoadSuite((root_ / "suites").string(), "s");
  ASSERT_FALSE(suite.ok());
  EXPECT_THAT(suite.status().message(), HasSubstr("not a suite file"));
}

}  // namespace
}  // namespace onnxgate
