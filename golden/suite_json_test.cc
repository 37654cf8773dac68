// suite.json updates under the suite folder's lock: processes that each read, merge and write one
// suite.json at the same time all end up in it; the merge keeps what users added.
#include "golden/suite_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "golden/golden_test_util.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

// One writer's whole update, as record and import-onnx-tests make it: lock, read, add its case,
// write.
Status AddCase(const std::string& path, const std::string& name) {
  ONNXGATE_ASSIGN_OR_RETURN(FolderLock lock, LockSuiteJson(path));
  ONNXGATE_ASSIGN_OR_RETURN(SuiteJson suite, ReadSuiteJsonForUpdate(path));
  std::map<std::string, SuiteJson> cases = SuiteCasesByName(suite);
  cases[name] = SuiteJson{{"name", name}, {"model", "models/" + name + ".onnx"}};
  SuiteJson& listed = suite["cases"] = SuiteJson::array();
  for (auto& [n, c] : cases) listed.push_back(std::move(c));
  return WriteSuiteJson(path, suite);
}

TEST(SuiteJsonTest, ConcurrentWritersFromProcessesAllEndUpInTheFile) {
  testing_util::TempDir dir;
  const std::string path = dir.File("suites/mine/suite.json");
  constexpr int kWriters = 12, kRounds = 5;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bool ok = true;
      for (int r = 0; r < kRounds; ++r) {
        ok = AddCase(path, "case" + std::to_string(w) + "_" + std::to_string(r)).ok() && ok;
      }
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto suite = ReadSuiteJsonForUpdate(path);
  ASSERT_TRUE(suite.ok()) << suite.status().ToString();
  const std::map<std::string, SuiteJson> cases = SuiteCasesByName(*suite);
  EXPECT_EQ(cases.size(), static_cast<size_t>(kWriters * kRounds));
  for (int w = 0; w < kWriters; ++w) {
    for (int r = 0; r < kRounds; ++r) {
      EXPECT_EQ(cases.count("case" + std::to_string(w) + "_" + std::to_string(r)), 1u);
    }
  }
}

TEST(SuiteJsonTest, AWriterThatCannotGetTheLockWritesNothing) {
  testing_util::TempDir dir;
  const std::string path = dir.File("suites/mine/suite.json");
  ASSERT_TRUE(AddCase(path, "first").ok());
  auto held = LockSuiteJson(path);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  const std::string before = ReadFile(path).value();
  auto second = LockFolderOf(path, std::chrono::milliseconds(20));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find(dir.File("suites/mine")), std::string::npos)
      << second.status().message();
  EXPECT_EQ(ReadFile(path).value(), before);
}

// The suite.json a merge would write over is read through the one JSON reader and its bounded
// open: a bad one is refused naming the file and the JSON path, and nothing is read from a FIFO.
TEST(SuiteJsonTest, ABadSuiteJsonIsRefusedNamingFileAndPath) {
  testing_util::TempDir dir;
  const std::string path = dir.File("suites/mine/suite.json");
  auto error = [&](const std::string& text) {
    EXPECT_TRUE(WriteFileAtomically(path, text).ok());
    auto read = ReadSuiteJsonForUpdate(path);
    EXPECT_FALSE(read.ok()) << text;
    EXPECT_EQ(read.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(read.status().message(), ::testing::HasSubstr(path + ": ")) << text;
    EXPECT_THAT(read.status().message(), ::testing::HasSubstr("so that its edits are not lost"));
    return read.status().message();
  };
  EXPECT_THAT(error(R"({"cases": [{"name": "a"}, {"name": 5}]})"),
              ::testing::HasSubstr("cases[1].name: expected a string, got 5"));
  EXPECT_THAT(error(R"({"cases": [{"name": "a"}, {"name": "a"}]})"),
              ::testing::HasSubstr("cases[1]: case 'a' is listed twice"));
  EXPECT_THAT(error(R"({"cases": {}})"),
              ::testing::HasSubstr("cases: expected an array, got an object"));
  EXPECT_THAT(error("{\"name\": \"\xC0\"}"), ::testing::HasSubstr("invalid UTF-8"));
  EXPECT_THAT(error(std::string(100, '[') + std::string(100, ']')),
              ::testing::HasSubstr("nest deeper than 64"));
  ASSERT_EQ(::unlink(path.c_str()), 0);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto fifo = ReadSuiteJsonForUpdate(path);
  ASSERT_FALSE(fifo.ok());
  EXPECT_THAT(fifo.status().message(), ::testing::HasSubstr("not a suite file"));
  ASSERT_EQ(::unlink(path.c_str()), 0);
  auto none = ReadSuiteJsonForUpdate(path);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(SuiteJsonTest, MergeKeepsWhatUsersAdded) {
  const SuiteJson old = {{"name", "c"},
                         {"model", "old.onnx"},
                         {"description", "mine"},
                         {"tags", {"recorded", "slow"}}};
  const SuiteJson merged =
      MergeCaseEntry({{"name", "c"}, {"model", "new.onnx"}, {"tags", {"recorded"}}}, old,
                     {"name", "model", "tags"}, {"recorded"});
  EXPECT_EQ(merged["model"], "new.onnx");
  EXPECT_EQ(merged["description"], "mine");
  EXPECT_EQ(merged["tags"], SuiteJson({"recorded", "slow"}));
}

}  // namespace
}  // namespace onnxgate
