// .npz and .npy reading: arrays numpy.savez writes, and every malformed archive or array refused
// with the file and the array named.
#include "harness/models/npz_reader.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cstring>
#include <filesystem>
#include <set>
#include <vector>

#include "harness/harness_test_util.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

// A .npy file with the header dict `header`: magic, version 1.0, the header padded to 64 bytes,
// the data.
std::string NpyHeader(std::string header, const std::string& data) {
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

// A .npy file as numpy writes it.
std::string Npy(const std::string& descr, const std::string& shape, const std::string& data,
                bool fortran = false) {
  return NpyHeader("{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }",
                   data);
}

template <typename T>
std::string Bytes(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// One member of a zip written by WriteZip: stored (as numpy.savez writes them) or deflated (as
// numpy.savez_compressed does).
struct Member {
  std::string name;
  std::string bytes;
  bool deflate = false;
};

// Writes the members into a zip file at `path`.
void WriteZip(const std::string& path, const std::vector<Member>& members) {
  int error = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(zip, nullptr);
  for (const Member& m : members) {
    // libzip frees the copy once the archive is written.
    void* copy = std::malloc(m.bytes.size() + 1);
    std::memcpy(copy, m.bytes.data(), m.bytes.size());
    zip_source_t* source = zip_source_buffer(zip, copy, m.bytes.size(), /*freep=*/1);
    ASSERT_NE(source, nullptr);
    const zip_int64_t index = zip_file_add(zip, m.name.c_str(), source, ZIP_FL_OVERWRITE);
    ASSERT_GE(index, 0);
    ASSERT_EQ(zip_set_file_compression(zip, index, m.deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0),
              0);
  }
  ASSERT_EQ(zip_close(zip), 0);
}

// Rewrites the uncompressed size that the central directory declares for every member.
void DeclareUncompressedSize(const std::string& path, uint32_t size) {
  auto bytes = ReadFile(path);
  ASSERT_TRUE(bytes.ok());
  const std::string signature("PK\x01\x02", 4);
  int patched = 0;
  for (size_t at = bytes->find(signature); at != std::string::npos;
       at = bytes->find(signature, at + 4), ++patched) {
    for (int i = 0; i < 4; ++i) (*bytes)[at + 24 + i] = static_cast<char>(size >> (8 * i));
  }
  ASSERT_GT(patched, 0);
  ASSERT_TRUE(WriteFileAtomically(path, *bytes).ok());
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
  auto npz = ReadNpzFile(path);
  ASSERT_TRUE(npz.ok()) << npz.status().ToString();
  const std::map<std::string, Tensor>* arrays = &npz->arrays;
  ASSERT_EQ(arrays->size(), 3u);
  EXPECT_TRUE(npz->unread.empty());
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
      {"object.npy", Npy("|O", "(1,)", "x"), "pickled Python objects"},
      {"text.npy", Npy("<U3", "(1,)", "abcdefghijkl"), "no ONNX element type"},
      {"record.npy",
       NpyHeader("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "abcd"),
       "structured (record) array"},
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
  DeclareUncompressedSize(path, 0x7fffffff);
  auto arrays = ReadNpzFile(path);
  ASSERT_FALSE(arrays.ok());
  EXPECT_NE(arrays.status().message().find("claims 2147483647 bytes uncompressed"),
            std::string::npos)
      << arrays.status().message();
}

TEST_F(NpzReaderTest, InflatesOnlyTheWantedArrays) {
  const std::string path = dir_ + "/some.npz";
  // "junk" is no .npy at all: reading it would fail, so success shows it was never inflated.
  WriteZip(path,
           {{"x.npy", Npy("<f4", "(2,)", Bytes<float>({1, 2}))}, {"junk.npy", "not numpy at all"}});
  auto npz = ReadNpzFile(path, NpzRequest{std::set<std::string>{"x", "absent"}});
  ASSERT_TRUE(npz.ok()) << npz.status().ToString();
  ASSERT_EQ(npz->arrays.size(), 1u);
  EXPECT_EQ(npz->arrays.at("x").data<float>()[1], 2.0f);
  EXPECT_EQ(npz->unread, std::vector<std::string>{"junk"});
}

TEST_F(NpzReaderTest, RefusesArraysOverTheBudgetBeforeInflatingAny) {
  const std::string path = dir_ + "/bomb.npz";
  // Deflated zeros, 1 MiB each, after a first member that would fail if it were inflated.
  const std::string zeros = Npy("<f4", "(262144,)", std::string(size_t{1} << 20, '\0'));
  std::vector<Member> members = {{"bad.npy", "not numpy at all"}};
  for (int i = 0; i < 6; ++i) members.push_back({"a" + std::to_string(i) + ".npy", zeros, true});
  WriteZip(path, members);
  NpzRequest request;
  request.budget_bytes = uint64_t{4} << 20;
  auto npz = ReadNpzFile(path, request);
  ASSERT_FALSE(npz.ok());
  const std::string& message = npz.status().message();
  EXPECT_NE(message.find(path + " array 'a3.npy'"), std::string::npos) << message;
  EXPECT_NE(message.find("4194304-byte budget"), std::string::npos) << message;
  EXPECT_EQ(message.find("magic"), std::string::npos) << message;

  // Within the budget, deflated arrays read whole; the one not asked for stays unread.
  request.budget_bytes = uint64_t{8} << 20;
  request.wanted = std::set<std::string>{"a0", "a1", "a2", "a3", "a4", "a5"};
  npz = ReadNpzFile(path, request);
  ASSERT_TRUE(npz.ok()) << npz.status().ToString();
  ASSERT_EQ(npz->arrays.size(), 6u);
  EXPECT_EQ(npz->arrays.at("a5").NumElements(), 262144);
  EXPECT_EQ(npz->unread, std::vector<std::string>{"bad"});
}

// Six members declaring 1 GiB each, as deflated zeros do from a few megabytes: refused at the
// third by the default budget, from the central directory alone (the archive holds a few
// kilobytes of each, so nothing of that size could be inflated).
TEST_F(NpzReaderTest, RefusesSixGibibyteMembersWithTheDefaultBudget) {
  const std::string path = dir_ + "/gib.npz";
  std::vector<Member> members;
  for (int i = 0; i < 6; ++i) {
    members.push_back({"m" + std::to_string(i) + ".npy", std::string(1024, '\0'), true});
  }
  // Enough stored bytes that 1 GiB is within deflate's expansion of the archive.
  members.push_back({"pad.npy", std::string(size_t{1} << 20, 'x')});
  WriteZip(path, members);
  DeclareUncompressedSize(path, uint32_t{1} << 30);
  auto npz = ReadNpzFile(path);
  ASSERT_FALSE(npz.ok());
  const std::string& message = npz.status().message();
  EXPECT_NE(message.find(path + " array 'm2.npy'"), std::string::npos) << message;
  EXPECT_NE(message.find("declare 3221225472 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(kNpzBudgetBytes) + "-byte budget"), std::string::npos)
      << message;
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
