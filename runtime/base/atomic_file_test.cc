// Tests for atomic writes: whole files appear, failed writes leave nothing behind.
#include "runtime/base/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

TEST(AtomicFileTest, WritesWholeFileAndCreatesFolders) {
  fs::path dir = fs::path(::testing::TempDir()) / "atomic_file_test" / "sub";
  fs::remove_all(dir.parent_path());
  std::string path = (dir / "out.txt").string();
  ASSERT_TRUE(WriteFileAtomically(path, "hello").ok());
  EXPECT_EQ(*ReadFile(path), "hello");
  ASSERT_TRUE(WriteFileAtomically(path, "again").ok());
  EXPECT_EQ(*ReadFile(path), "again");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(AtomicFileTest, FailedWriteKeepsOldContentsAndLeavesNoTemp) {
  fs::path dir = fs::path(::testing::TempDir()) / "atomic_file_fail";
  fs::remove_all(dir);
  std::string path = (dir / "r.json").string();
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  Status st = WriteThroughTempFile(path, [](const std::string& temp) {
    EXPECT_TRUE(WriteFileAtomically(temp, "partial").ok());
    return DataLoss("simulated failure");
  });
  EXPECT_EQ(st.code(), StatusCode::kDataLoss);
  EXPECT_EQ(*ReadFile(path), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  EXPECT_EQ(ReadFile((dir / "missing").string()).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace onnxgate
