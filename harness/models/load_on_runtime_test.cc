// Tests for LoadOnRuntime: a runtime that reads binary ONNX only gets a binary copy of a text
// model, removed after the load, and its load error names the user's file.
#include "harness/models/load_on_runtime.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>

#include "harness/harness_test_util.h"
#include "harness/mock_runtime.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;
using ::testing::_;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Invoke;
using ::testing::Not;

class LoadOnRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestRootFor("load_on_runtime_test");
    fs::create_directories(dir_);
    text_path_ = dir_ + "/relu.onnxtxt";
    std::ofstream(text_path_) << "<ir_version: 8, opset_import: [\"\" : 13]>\n"
                                 "relu (float[2] X) => (float[2] Y) {\n  Y = Relu(X)\n}\n";
    ON_CALL(runtime_, name()).WillByDefault(::testing::Return("binary-only"));
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string dir_;
  std::string text_path_;
  ::testing::NiceMock<MockRuntime> runtime_;
};

TEST_F(LoadOnRuntimeTest, ABinaryOnlyRuntimeGetsABinaryCopyOfATextModel) {
  runtime_.reads_onnx_text = false;
  std::string seen;
  EXPECT_CALL(runtime_, Load(_, _))
      .WillOnce(Invoke([&](const std::string& path,
                           const LoadOptions& options) -> StatusOr<std::unique_ptr<LoadedModel>> {
        seen = path;
        EXPECT_EQ(options.model_bytes, nullptr);
        std::ifstream in(path, std::ios::binary);
        onnx::ModelProto model;
        EXPECT_TRUE(model.ParseFromIstream(&in)) << "a binary ONNX model";
        EXPECT_EQ(model.graph().node(0).op_type(), "Relu");
        return InvalidArgument("cannot load " + path);
      }));
  auto loaded = LoadOnRuntime(runtime_, text_path_, LoadOptions());
  EXPECT_THAT(seen, EndsWith(".onnx"));
  EXPECT_FALSE(fs::exists(seen)) << "the copy is removed with the failed load";
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().message(), "cannot load " + text_path_ + " (as binary ONNX)");
}

TEST_F(LoadOnRuntimeTest, ARuntimeThatReadsTextGetsTheFileItself) {
  EXPECT_CALL(runtime_, Load(text_path_, _))
      .WillOnce(Invoke(
          [](const std::string&, const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
            return Unimplemented("x");
          }));
  EXPECT_EQ(LoadOnRuntime(runtime_, text_path_, LoadOptions()).status().code(),
            StatusCode::kUnimplemented);
}

TEST_F(LoadOnRuntimeTest, ABinaryModelIsLoadedFromItsOwnPath) {
  runtime_.reads_onnx_text = false;
  const std::string binary = dir_ + "/m.onnx";
  EXPECT_CALL(runtime_, Load(binary, _))
      .WillOnce(Invoke(
          [](const std::string&, const LoadOptions&) -> StatusOr<std::unique_ptr<LoadedModel>> {
            return Unimplemented("x");
          }));
  (void)LoadOnRuntime(runtime_, binary, LoadOptions());
}

TEST_F(LoadOnRuntimeTest, AnUnreadableTextModelIsAnErrorNamingIt) {
  runtime_.reads_onnx_text = false;
  std::ofstream(text_path_) << "not onnx text {";
  EXPECT_CALL(runtime_, Load(_, _)).Times(0);
  auto loaded = LoadOnRuntime(runtime_, text_path_, LoadOptions());
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(loaded.status().message(), HasSubstr("relu.onnxtxt"));
}

}  // namespace
}  // namespace onnxgate
