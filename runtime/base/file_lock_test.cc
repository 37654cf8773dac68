// Folder locks: a second writer waits for the first, gives up with a clear error after its wait,
// and read-modify-writes from threads and processes under the lock lose nothing.
#include "runtime/base/file_lock.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / ("file_lock_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// One read-modify-write of a counter file, under the folder's lock.
bool IncrementUnderLock(const std::string& path) {
  auto lock = LockFolderOf(path);
  if (!lock.ok()) return false;
  auto text = ReadFile(path);
  const int now = text.ok() ? std::stoi(*text) : 0;
  return WriteFileAtomically(path, std::to_string(now + 1)).ok();
}

TEST(FileLockTest, ASecondWriterWaitsThenGivesUpNamingTheFolder) {
  const fs::path dir = FreshDir("second");
  auto first = FolderLock::Acquire(dir.string(), "suite.json");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = LockFolderOf((dir / "suite.json").string(), std::chrono::milliseconds(30));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find(dir.string()), std::string::npos)
      << second.status().message();
  EXPECT_NE(second.status().message().find("was not written"), std::string::npos)
      << second.status().message();
  { FolderLock released = std::move(first).value(); }
  EXPECT_TRUE(LockFolderOf((dir / "suite.json").string(), std::chrono::milliseconds(30)).ok());
}

TEST(FileLockTest, CreatesAMissingFolderAndRefusesOneThatCannotBe) {
  const fs::path dir = FreshDir("create");
  EXPECT_TRUE(LockFolderOf((dir / "a" / "b" / "f.json").string()).ok());
  EXPECT_TRUE(fs::is_directory(dir / "a" / "b"));
  ASSERT_TRUE(WriteFileAtomically((dir / "plain").string(), "x").ok());
  auto under_file = LockFolderOf((dir / "plain" / "sub" / "f.json").string());
  ASSERT_FALSE(under_file.ok());
  EXPECT_EQ(under_file.status().code(), StatusCode::kNotFound);
  EXPECT_NE(under_file.status().message().find("plain"), std::string::npos);
}

TEST(FileLockTest, ThreadsWithTheirOwnDescriptorsLoseNoUpdate) {
  const std::string path = (FreshDir("threads") / "counter").string();
  constexpr int kThreads = 8, kEach = 25;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) failures[t] += IncrementUnderLock(path) ? 0 : 1;
    });
  }
  for (std::thread& t : threads) t.join();
  for (int f : failures) EXPECT_EQ(f, 0);
  EXPECT_EQ(*ReadFile(path), std::to_string(kThreads * kEach));
}

TEST(FileLockTest, ProcessesLoseNoUpdate) {
  const std::string path = (FreshDir("processes") / "counter").string();
  constexpr int kProcesses = 6, kEach = 20;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Temp names are per process id (atomic_file.h), so processes do not share one.
      bool ok = true;
      for (int i = 0; i < kEach; ++i) ok = IncrementUnderLock(path) && ok;
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(*ReadFile(path), std::to_string(kProcesses * kEach));
}

}  // namespace
}  // namespace onnxgate
