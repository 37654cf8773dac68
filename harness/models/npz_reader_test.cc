// .npz and .npy reading: arrays numpy.savez writes, and every malformed archive or array refused
// with the file and the array named.
#include "harness/models/npz_reader.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "harness/harness_test_util.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

// A .npy file as numpy writes it: magic, version 1.0, a header padded to 64 bytes, the data.
std::string Npy(const std::string& descr, const std::string& shape, const std::string& data,
                bool fortran = false) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " +
                       (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

template <typename T>
std::string Bytes(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// Writes the members into a zip file at `path` (stored, as numpy.savez does).
void WriteZip(const std::string& path, const std::vector<std::pair<std::string, std::string>>& members) {
  int error = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(zip, nullptr);
  for (const auto& [name, bytes] : members) {
    // libzip frees the copy once the archive is written.
    void* copy = std::malloc(bytes.size() + 1);
    std::memcpy(copy, bytes.data(), bytes.size());
    zip_source_t* source = zip_source_buffer(zip, copy, bytes.size(), /*freep=*/1);
    ASSERT_NE(source, nullptr);
    ASSERT_GE(zip_file_add(zip, name.c_str(), source, ZIP_FL_OVERWRITE), 0);
  }
  ASSERT_EQ(zip_close(zip), 0);
}

class NpzReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("npz");
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(NpzReaderTest, ReadsTheArraysNumpySavezWrites) {
  const std::string path = dir_ + "/inputs.npz";
  WriteZip(path, {{"x.npy", Npy("<f4", "(2, 3)", Bytes<float>({1, 2, 3, 4, 5, 6}))},
                  {"ids.npy", Npy("<i8", "(4,)", Bytes<int64_t>({7, 8, 9, 10}))},
                  {"flag.npy", Npy("|b1", "()", std::string(1, '\x01'))}});
  auto arrays = ReadNpzFile(path);
  ASSERT_TRUE(arrays.ok()) << arrays.status().ToString();
  ASSERT_EQ(arrays->size(), 3u);
  const Tensor& x = arrays->at("x");
  EXPECT_EQ(x.dtype(), DataType::kFloat);
  EXPECT_EQ(x.shape(), Shape({2, 3}));
  EXPECT_EQ(x.data<float>()[5], 6.0f);
  EXPECT_EQ(arrays->at("ids").dtype(), DataType::kInt64);
  EXPECT_EQ(arrays->at("ids").data<int64_t>()[3], 10);
  EXPECT_EQ(arrays->at("flag").shape(), Shape(std::vector<int64_t>{}));
}

TEST_F(NpzReaderTest, RefusesArraysItCannotReadNamingFileAndArray) {
  struct Bad {
    std::string member;
    std::string bytes;
    std::string says;
  };
  const std::vector<Bad> bads = {
      {"big.npy", Npy(">f4", "(1,)", Bytes<float>({1})), "not little-endian"},
      {"fortran.npy", Npy("<f4", "(2, 2)", Bytes<float>({1, 2, 3, 4}), true), "Fortran-order"},
      {"short.npy", Npy("<f4", "(3,)", Bytes<float>({1, 2})), "needs 12 bytes"},
      {"object.npy", Npy("|O", "(1,)", "x"), "no ONNX element type"},
      {"huge.npy", Npy("<f8", "(999999999999999, 999999999999999)", ""), "more elements than"},
      {"nomagic.npy", "not numpy at all", "no \\x93NUMPY magic"},
      {"notes.txt", "hello", "only .npy members"},
  };
  for (const Bad& bad : bads) {
    const std::string path = dir_ + "/bad.npz";
    WriteZip(path, {{bad.member, bad.bytes}});
    auto arrays = ReadNpzFile(path);
    ASSERT_FALSE(arrays.ok()) << bad.member;
    EXPECT_NE(arrays.status().message().find(path), std::string::npos) << arrays.status().message();
    EXPECT_NE(arrays.status().message().find(bad.member), std::string::npos)
        << arrays.status().message();
    EXPECT_NE(arrays.status().message().find(bad.says), std::string::npos)
        << arrays.status().message();
  }
}

TEST_F(NpzReaderTest, RefusesAMemberClaimingMoreThanDeflateCouldHold) {
  const std::string path = dir_ + "/claims.npz";
  WriteZip(path, {{"x.npy", Npy("<f4", "(2,)", Bytes<float>({1, 2}))}});
  auto bytes = ReadFile(path);
  ASSERT_TRUE(bytes.ok());
  // The central directory entry's uncompressed size (offset 24) now claims 2^31 - 1 bytes.
  const size_t entry = bytes->find(std::string("PK\x01\x02", 4));
  ASSERT_NE(entry, std::string::npos);
  for (int i = 0; i < 4; ++i) (*bytes)[entry + 24 + i] = i == 3 ? '\x7f' : '\xff';
  ASSERT_TRUE(WriteFileAtomically(path, *bytes).ok());
  auto arrays = ReadNpzFile(path);
  ASSERT_FALSE(arrays.ok());
  EXPECT_NE(arrays.status().message().find("claims 2147483647 bytes uncompressed"),
            std::string::npos)
      << arrays.status().message();
}

TEST_F(NpzReaderTest, RefusesAFileThatIsNotAZip) {
  const std::string path = dir_ + "/plain.npz";
  ASSERT_TRUE(WriteFileAtomically(path, "plain text").ok());
  auto arrays = ReadNpzFile(path);
  ASSERT_FALSE(arrays.ok());
  EXPECT_NE(arrays.status().message().find("not a NumPy .npz archive"), std::string::npos)
      << arrays.status().message();
  EXPECT_FALSE(ReadNpzFile(dir_ + "/missing.npz").ok());
}

}  // namespace
}  // namespace onnxgate
