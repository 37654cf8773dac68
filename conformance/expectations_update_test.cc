// Expectations files rewritten under their folder's lock: an update waits for another writer and
// gives up without writing; updates that follow one another each start from the last one's file.
#include "conformance/expectations_update.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

CaseRecord Failing(const std::string& name) {
  CaseRecord r;
  r.suite = "s";
  r.name = name;
  r.outcome = r.verdict = Verdict::kFail;
  r.message = "wrong values";
  return r;
}

class ExpectationsUpdateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "expectations_update_XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    path_ = dir_ + "/expectations/ref.json";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_, path_;
};

TEST_F(ExpectationsUpdateTest, WritesTheRunAndKeepsReasonsOfTheFileItReadUnderTheLock) {
  auto first = UpdateExpectationsFile(path_, "ref", {Failing("test_a")});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->before.entries.empty());
  ASSERT_EQ(first->after.entries.size(), 1u);

  // A person reviews the entry; the next update starts from that file.
  ExpectationFile reviewed = first->after;
  reviewed.entries[0].reason = "reviewed: known rounding";
  reviewed.entries[0].review = false;
  ASSERT_TRUE(WriteExpectations(path_, reviewed).ok());
  auto second = UpdateExpectationsFile(path_, "ref", {Failing("test_a"), Failing("test_b")});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  ASSERT_EQ(second->after.entries.size(), 2u);
  EXPECT_EQ(second->after.entries[0].reason, "reviewed: known rounding");
  auto read = LoadExpectations(path_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->entries.size(), 2u);
}

TEST_F(ExpectationsUpdateTest, WaitsForAnotherWriterThenGivesUpWritingNothing) {
  ASSERT_TRUE(UpdateExpectationsFile(path_, "ref", {Failing("test_a")}).ok());
  const std::string before = ReadFile(path_).value();
  auto held = LockFolderOf(path_);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  auto blocked =
      UpdateExpectationsFile(path_, "ref", {Failing("test_b")}, std::chrono::milliseconds(20));
  ASSERT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(blocked.status().message(), HasSubstr(dir_ + "/expectations"));
  EXPECT_EQ(ReadFile(path_).value(), before);
}

}  // namespace
}  // namespace onnxgate
