// Tests for external data: reading inside the model's folder, and each rule that refuses a
// location leaving it or an offset/length beyond the file.
#include "runtime/proto/external_data.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "runtime/proto/tensor_proto.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

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
    Write(root_ + "/secret.bin", bytes);
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
  EXPECT_THAT(st.message(), HasSubstr("external data 'weights.bin' has 16 bytes but FLOAT[3] needs 12"));
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
  EXPECT_THAT(missing.message(), HasSubstr("'nope.bin' not found in '" + model_dir_ + "'"));
  auto folder = ReadExternalData(External("sub", {1}), model_dir_).status();
  EXPECT_EQ(folder.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(folder.message(), HasSubstr("is not a regular file"));
}

}  // namespace
}  // namespace onnxgate
