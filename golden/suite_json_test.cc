// suite.json updates under the suite folder's lock: processes that each read, merge and write one
// suite.json at the same time all end up in it; the merge keeps what users added.
#include "golden/suite_json.h"

#include <gtest/gtest.h>
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
