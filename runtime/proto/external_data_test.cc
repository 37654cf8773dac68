// Tests for external data: reading inside the model's folder, and each rule that refuses a
// location leaving it (links, hard links, "..", a folder swapped for a link while it is read), a
// file that is not regular, an offset/length beyond the file, or a length that disagrees with the
// declared dims (refused before anything is allocated). A secret file lies outside the folder;
// no test ever gets its bytes.
#include "runtime/proto/external_data.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "runtime/base/contained_file.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// In a death-test child: limits the address space to what is in use plus 512 MiB, reads the
// external data of `proto` and exits 0 when it was refused with `expected` in the message.
[[noreturn]] void ReadUnderAddressSpaceLimit(const onnx::TensorProto& proto, const std::string& dir,
                                             const std::string& expected) {
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const rlim_t limit =
      static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{512} << 20);
  rlimit rl{};
  rl.rlim_cur = limit;
  rl.rlim_max = limit;
  if (pages == 0 || setrlimit(RLIMIT_AS, &rl) != 0) std::_Exit(3);
  Status st = ReadExternalData(proto, dir).status();
  bool refused =
      st.code() == StatusCode::kInvalidArgument && st.message().find(expected) != std::string::npos;
  std::_Exit(refused ? 0 : 1);
}

class ExternalDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/onnxgate_ext_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    model_dir_ = root_ + "/model";
    std::filesystem::create_directories(model_dir_ + "/sub");
    // Four floats 1..4 in model/weights.bin and in model/sub/w.bin.
    std::string bytes;
    for (float f : {1.f, 2.f, 3.f, 4.f}) bytes.append(reinterpret_cast<const char*>(&f), 4);
    Write(model_dir_ + "/weights.bin", bytes);
    Write(model_dir_ + "/sub/w.bin", bytes);
    // The secret: four floats 9..12, the same size as the inside files.
    std::string secret;
    for (float f : {9.f, 10.f, 11.f, 12.f}) secret.append(reinterpret_cast<const char*>(&f), 4);
    secret_ = secret;
    inside_ = bytes;
    Write(root_ + "/secret.bin", secret);
    std::filesystem::create_directories(root_ + "/outside");
    Write(root_ + "/outside/w.bin", secret);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  static void Write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }

  static onnx::TensorProto External(const std::string& location, std::vector<int64_t> dims,
                                    const std::string& offset = "",
                                    const std::string& length = "") {
    onnx::TensorProto p;
    p.set_name("W");
    p.set_data_type(1);
    for (int64_t d : dims) p.add_dims(d);
    p.set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](const std::string& k, const std::string& v) {
      auto* e = p.add_external_data();
      e->set_key(k);
      e->set_value(v);
    };
    add("location", location);
    if (!offset.empty()) add("offset", offset);
    if (!length.empty()) add("length", length);
    return p;
  }

  std::string root_;
  std::string model_dir_;
  std::string inside_, secret_;
};

TEST_F(ExternalDataTest, ReadsWholeFileAndSlices) {
  auto t = TensorFromProto(External("weights.bin", {4}), model_dir_);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->DebugString(), "FLOAT[4] {1, 2, 3, 4}");

  auto slice = TensorFromProto(External("./sub/w.bin", {2}, "4", "8"), model_dir_);
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  EXPECT_EQ(slice->DebugString(), "FLOAT[2] {2, 3}");

  auto rest = ReadExternalData(External("weights.bin", {1}, "12"), model_dir_);
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest->size(), 4u);
}

TEST_F(ExternalDataTest, SizeMismatchWithShapeIsRefused) {
  auto st = TensorFromProto(External("weights.bin", {3}), model_dir_).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(),
              HasSubstr("external data 'weights.bin' has 16 bytes but FLOAT[3] needs 12"));
}

// The range CheckExternalDataRange reports is where the bytes lie and how big the whole file is,
// found without reading it; a range that disagrees with the dims is refused as the read would be.
TEST_F(ExternalDataTest, RangeReportsOffsetLengthAndFileSizeWithoutReading) {
  auto dir = ContainedDir::Open(model_dir_);
  ASSERT_TRUE(dir.ok()) << dir.status().ToString();
  auto range = CheckExternalDataRange(External("./sub/w.bin", {2}, "4", "8"), *dir);
  ASSERT_TRUE(range.ok()) << range.status().ToString();
  EXPECT_EQ(range->location, "./sub/w.bin");
  EXPECT_EQ(range->offset, 4u);
  EXPECT_EQ(range->length, 8u);
  EXPECT_EQ(range->file_bytes, 16u);
  auto wrong = CheckExternalDataRange(External("weights.bin", {3}), *dir);
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("has 16 bytes but FLOAT[3] needs 12"));
}

TEST_F(ExternalDataTest, PackedTypesReadPackedBytes) {
  // weights.bin holds 16 bytes: 32 INT4 elements, 64 UINT2 elements or 16 FLOAT8E5M2 elements.
  auto int4 = External("weights.bin", {4, 8});
  int4.set_data_type(onnx::TensorProto::INT4);
  auto t = TensorFromProto(int4, model_dir_);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->ByteSize(), 16u);
  EXPECT_EQ(std::memcmp(t->raw_data(), ReadExternalData(int4, model_dir_)->data(), 16), 0);

  auto slice = External("weights.bin", {3}, "4", "2");
  slice.set_data_type(onnx::TensorProto::UINT4);
  auto s = TensorFromProto(slice, model_dir_);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->NumElements(), 3);

  auto wrong = External("weights.bin", {33});
  wrong.set_data_type(onnx::TensorProto::INT4);
  auto st = TensorFromProto(wrong, model_dir_).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("tensor 'W': external data 'weights.bin' has 16 bytes but "
                                      "INT4[33] needs 17 (2 elements per byte)"));
  auto two = External("weights.bin", {63});
  two.set_data_type(onnx::TensorProto::UINT2);
  EXPECT_TRUE(TensorFromProto(two, model_dir_).ok());  // 63 elements take 16 bytes, with padding
  two.set_dims(0, 65);
  EXPECT_THAT(TensorFromProto(two, model_dir_).status().message(),
              HasSubstr("has 16 bytes but UINT2[65] needs 17 (4 elements per byte)"));
}

TEST_F(ExternalDataTest, RefusesAbsoluteLocation) {
  auto st = ReadExternalData(External(root_ + "/secret.bin", {4}), model_dir_).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("tensor 'W'"));
  EXPECT_THAT(st.message(), HasSubstr("is absolute"));
}

TEST_F(ExternalDataTest, RefusesDotDot) {
  for (const char* loc : {"../secret.bin", "sub/../../secret.bin", "sub/..", "..\\secret.bin"}) {
    auto st = ReadExternalData(External(loc, {4}), model_dir_).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << loc;
    EXPECT_THAT(st.message(), HasSubstr("contains '..'")) << loc;
  }
}

TEST_F(ExternalDataTest, RefusesSymlinks) {
  // A link to a file outside the folder, and a folder link, even one that stays inside.
  ASSERT_EQ(symlink((root_ + "/secret.bin").c_str(), (model_dir_ + "/link.bin").c_str()), 0);
  ASSERT_EQ(symlink((model_dir_ + "/sub").c_str(), (model_dir_ + "/sublink").c_str()), 0);
  for (const char* loc : {"link.bin", "sublink/w.bin"}) {
    auto st = ReadExternalData(External(loc, {4}), model_dir_).status();
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << loc;
    EXPECT_THAT(st.message(), HasSubstr("symbolic link")) << loc;
  }
}

TEST_F(ExternalDataTest, RefusesOffsetAndLengthBeyondTheFile) {
  auto past = ReadExternalData(External("weights.bin", {1}, "17"), model_dir_).status();
  EXPECT_EQ(past.code(), StatusCode::kDataLoss);
  EXPECT_THAT(past.message(), HasSubstr("offset 17 is past the end of 'weights.bin' (16 bytes)"));

  auto longer = ReadExternalData(External("weights.bin", {4}, "8", "16"), model_dir_).status();
  EXPECT_EQ(longer.code(), StatusCode::kDataLoss);
  EXPECT_THAT(longer.message(), HasSubstr("offset 8 + length 16 exceeds the size"));

  EXPECT_EQ(CheckExternalData(External("weights.bin", {1}, "17"), model_dir_).code(),
            StatusCode::kDataLoss);
  EXPECT_TRUE(CheckExternalData(External("weights.bin", {1}, "12", "4"), model_dir_).ok());
  EXPECT_THAT(ReadExternalData(External("weights.bin", {1}, "18446744073709551616"), model_dir_)
                  .status()
                  .message(),
              HasSubstr("is not a non-negative integer"));

  // A length near 2^64 must not wrap around in the bounds check.
  auto wrap =
      ReadExternalData(External("weights.bin", {1}, "4", "18446744073709551615"), model_dir_);
  EXPECT_EQ(wrap.status().code(), StatusCode::kDataLoss);
}

TEST_F(ExternalDataTest, RefusesMalformedKeys) {
  EXPECT_THAT(ReadExternalData(External("weights.bin", {1}, "-4"), model_dir_).status().message(),
              HasSubstr("offset '-4' is not a non-negative integer"));
  EXPECT_THAT(
      ReadExternalData(External("weights.bin", {1}, "", "x"), model_dir_).status().message(),
      HasSubstr("length 'x'"));
  EXPECT_THAT(ReadExternalData(External("", {1}), model_dir_).status().message(),
              HasSubstr("is empty"));
  onnx::TensorProto no_location = External("weights.bin", {1});
  no_location.mutable_external_data(0)->set_key("path");
  EXPECT_THAT(ReadExternalData(no_location, model_dir_).status().message(),
              HasSubstr("no 'location' key"));
  onnx::TensorProto twice = External("weights.bin", {1}, "0");
  twice.mutable_external_data(1)->set_key("location");
  EXPECT_THAT(ReadExternalData(twice, model_dir_).status().message(), HasSubstr("appears twice"));
}

TEST_F(ExternalDataTest, MissingFileAndFolders) {
  auto missing = ReadExternalData(External("nope.bin", {1}), model_dir_).status();
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.message(),
            "external data 'nope.bin' of tensor 'W' in '" + model_dir_ + "': not found");
  auto folder = ReadExternalData(External("sub", {1}), model_dir_).status();
  EXPECT_EQ(folder.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(folder.message(), HasSubstr("is a folder, not a regular file"));
  auto no_dir = ReadExternalData(External("w.bin", {1}), root_ + "/none").status();
  EXPECT_EQ(no_dir.code(), StatusCode::kNotFound);
  EXPECT_THAT(no_dir.message(), HasSubstr("tensor 'W': external data: '" + root_ + "/none'"));
}

TEST_F(ExternalDataTest, RefusesHardLinksToOutsideFiles) {
  ASSERT_EQ(link((root_ + "/secret.bin").c_str(), (model_dir_ + "/hard.bin").c_str()), 0);
  auto st = ReadExternalData(External("hard.bin", {4}), model_dir_).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "external data 'hard.bin' of tensor 'W' in '" + model_dir_ +
                              "': is a hard link (2 names); a file with other names may lie "
                              "outside that folder");
  EXPECT_EQ(CheckExternalData(External("hard.bin", {4}), model_dir_).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(ExternalDataTest, RefusesFifosWithoutBlocking) {
  ASSERT_EQ(mkfifo((model_dir_ + "/fifo.bin").c_str(), 0600), 0);
  auto st = ReadExternalData(External("fifo.bin", {4}), model_dir_).status();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("external data 'fifo.bin' of tensor 'W' in '" + model_dir_ +
                                      "': is a FIFO, not a regular file"));
}

TEST_F(ExternalDataTest, LengthMustMatchTheDeclarationBeforeReading) {
  // A length key shorter or longer than dims x element size.
  auto shorter = ReadExternalData(External("weights.bin", {4}, "0", "8"), model_dir_).status();
  EXPECT_EQ(shorter.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(
      shorter.message(),
      HasSubstr("tensor 'W': external data 'weights.bin' has 8 bytes but FLOAT[4] needs 16"));
  EXPECT_FALSE(CheckExternalData(External("weights.bin", {2}), model_dir_).ok());
  // Declarations that give no size are refused before the file is opened.
  auto text = External("weights.bin", {4});
  text.set_data_type(onnx::TensorProto::STRING);
  EXPECT_THAT(CheckExternalData(text, model_dir_).message(),
              HasSubstr("STRING tensors keep their data in string_data, not external data"));
  auto unknown = External("weights.bin", {4});
  unknown.set_data_type(99);
  EXPECT_THAT(CheckExternalData(unknown, model_dir_).message(),
              HasSubstr("unknown or undefined data_type 99"));
  auto negative = External("weights.bin", {-4});
  EXPECT_THAT(CheckExternalData(negative, model_dir_).message(), HasSubstr("bad dims"));
  auto six = External("weights.bin", {4});
  six.set_data_type(onnx::TensorProto::FLOAT6E2M3);
  EXPECT_EQ(CheckExternalData(six, model_dir_).code(), StatusCode::kUnimplemented);
}

// An 8 GiB sparse file behind a FLOAT[4] tensor: refused with both sizes, in a child whose address
// space could not hold 8 GiB, so an allocation before the check would fail the test. A 16-byte
// slice of the same file is read.
TEST_F(ExternalDataTest, HugeSparseFileIsRefusedBeforeAllocation) {
  const std::string big = model_dir_ + "/big.bin";
  int fd = open(big.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, off_t{8} << 30), 0);
  close(fd);
  EXPECT_EXIT(ReadUnderAddressSpaceLimit(External("big.bin", {4}), model_dir_,
                                         "has 8589934592 bytes but FLOAT[4] needs 16"),
              ::testing::ExitedWithCode(0), "");
  auto slice = ReadExternalData(External("big.bin", {4}, "4294967296", "16"), model_dir_);
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  EXPECT_EQ(*slice, std::string(16, '\0'));
}

// A thread keeps swapping model/sub between a real folder and a link to a folder outside (whose
// w.bin holds the secret) while the main thread reads sub/w.bin 400 times, with openat2 and with
// the openat walk. Each read gives the inside bytes or fails cleanly; never the secret.
TEST_F(ExternalDataTest, SwappingAFolderForALinkNeverReadsOutside) {
  const std::string sub = model_dir_ + "/sub";
  const std::string real_hold = model_dir_ + "/real_hold";
  const std::string link_hold = model_dir_ + "/link_hold";
  ASSERT_EQ(symlink((root_ + "/outside").c_str(), link_hold.c_str()), 0);
  for (bool walk : {false, true}) {
    contained_file_testing::ForceComponentWalk(walk);
    std::atomic<bool> stop{false};
    std::thread swapper([&] {
      while (!stop.load()) {
        if (rename(sub.c_str(), real_hold.c_str()) != 0) break;
        if (rename(link_hold.c_str(), sub.c_str()) != 0) break;
        if (rename(sub.c_str(), link_hold.c_str()) != 0) break;
        if (rename(real_hold.c_str(), sub.c_str()) != 0) break;
      }
    });
    for (int i = 0; i < 400; ++i) {
      StatusOr<std::string> r = ReadExternalData(External("sub/w.bin", {4}), model_dir_);
      if (r.ok()) {
        ASSERT_EQ(*r, inside_) << (walk ? "walk" : "openat2") << ", attempt " << i;
      }
    }
    stop = true;
    swapper.join();
    contained_file_testing::ForceComponentWalk(false);
    // Leave sub a real folder for the next round.
    if (!std::filesystem::is_directory(std::filesystem::symlink_status(sub))) {
      ASSERT_EQ(rename(sub.c_str(), link_hold.c_str()), 0);
      ASSERT_EQ(rename(real_hold.c_str(), sub.c_str()), 0);
    }
  }
}

}  // namespace
}  // namespace onnxgate
