// Tests of SHA-256 over bytes and files against the FIPS 180-2 test vectors.
#include "runtime/base/sha256.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace onnxgate {
namespace {

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256Test, FileMatchesBytesAcrossChunks) {
  // A million 'a's is the standard long vector and spans the reader's 1 MiB chunks.
  std::string bytes(1000000, 'a');
  std::string path =
      (std::filesystem::temp_directory_path() /
       ("onnxgate_sha256_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed())))
          .string();
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes << bytes;
  }
  StatusOr<std::string> hash = Sha256File(path);
  ASSERT_TRUE(hash.ok()) << hash.status().ToString();
  EXPECT_EQ(*hash, Sha256Hex(bytes + bytes));
  EXPECT_EQ(Sha256Hex(bytes), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  std::filesystem::remove(path);
}

TEST(Sha256Test, MissingFileIsNotFound) {
  StatusOr<std::string> hash = Sha256File("/nonexistent/model.onnx");
  ASSERT_FALSE(hash.ok());
  EXPECT_EQ(hash.status().code(), StatusCode::kNotFound);
  EXPECT_NE(hash.status().message().find("/nonexistent/model.onnx"), std::string::npos);
}

TEST(Sha256Test, FolderIsRefused) {
  StatusOr<std::string> hash = Sha256File(std::filesystem::temp_directory_path().string());
  EXPECT_FALSE(hash.ok());
}

// A model path naming a FIFO or a device would block or never end; both are refused at once.
TEST(Sha256Test, FifoAndDeviceAreRefused) {
  std::string fifo = (std::filesystem::temp_directory_path() / "onnxgate_sha256_fifo").string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(Sha256File(fifo).status().message(), fifo + ": is a FIFO, not a file to hash");
  std::filesystem::remove(fifo);
  EXPECT_EQ(Sha256File("/dev/zero").status().code(), StatusCode::kInvalidArgument);
}

TEST(Sha256Test, RecognisesHexDigests) {
  EXPECT_TRUE(IsSha256Hex(Sha256Hex("x")));
  EXPECT_FALSE(IsSha256Hex(""));
  EXPECT_FALSE(IsSha256Hex(std::string(64, 'A')));
  EXPECT_FALSE(IsSha256Hex(std::string(63, 'a')));
}

}  // namespace
}  // namespace onnxgate
