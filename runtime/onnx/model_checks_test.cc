// The checker, shape inference, text parser and version converter behind Status.
#include "runtime/onnx/model_checks.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "runtime/onnx/text_format.h"
#include "runtime/onnx/version_converter.h"

namespace onnxgate {
namespace {

constexpr const char* kReduceMean18 = R"(
<ir_version: 10, opset_import: ["" : 18]>
agraph (float[2,3] X, int64[1] axes) => (float[2,1] Y) {
  Y = ReduceMean <keepdims = 1> (X, axes)
}
)";

TEST(ModelChecksTest, AnOpset18ModelParsesChecksAndInfers) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(kReduceMean18, "reduce_mean.onnxtxt", &model).ok());
  EXPECT_EQ(model.ir_version(), 10);
  EXPECT_TRUE(CheckModelWithOnnx(model, {{"", 18}}, ".").ok());
  EXPECT_EQ(InferShapesWithOnnx(model), "");
}

TEST(ModelChecksTest, TheCheckerRejectsWithItsReason) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(R"(
<ir_version: 10, opset_import: ["" : 18]>
agraph (float[2] X) => (float[2] Y) {
  Y = Relu (X, X)
}
)",
                             "bad.onnxtxt", &model)
                  .ok());
  Status st = CheckModelWithOnnx(model, {{"", 18}}, ".");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("ONNX 1.23.2 checker rejects the model"), std::string::npos)
      << st.message();
}

TEST(ModelChecksTest, TextParseErrorsNameTheFile) {
  onnx::ModelProto model;
  Status st = ParseModelText("<ir_version: 10> agraph (float X => ", "broken.onnxtxt", &model);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("broken.onnxtxt"), std::string::npos) << st.message();
  onnx::NodeProto node;
  EXPECT_TRUE(ParseNodeText("Y = Relu (X)", &node).ok());
  EXPECT_EQ(node.op_type(), "Relu");
}

TEST(ModelChecksTest, VersionConverterMovesReduceMeanAcrossOpset18) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(R"(
<ir_version: 8, opset_import: ["" : 17]>
agraph (float[2,3] X) => (float[2,1] Y) {
  Y = ReduceMean <axes = [1], keepdims = 1> (X)
}
)",
                             "reduce_mean17.onnxtxt", &model)
                  .ok());
  auto converted = ConvertOpset(model, 18);
  ASSERT_TRUE(converted.ok()) << converted.status().ToString();
  EXPECT_EQ(converted->opset_import(0).version(), 18);
  EXPECT_TRUE(CheckModelWithOnnx(*converted, {{"", 18}}, ".").ok());
  EXPECT_FALSE(ConvertOpset(model, 29).ok());
}

}  // namespace
}  // namespace onnxgate
