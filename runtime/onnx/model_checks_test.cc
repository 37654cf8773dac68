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

// Gelu first exists in opset 20: an opset-20 model using it has no form in opset 17.
constexpr const char* kGelu20 = R"(
<ir_version: 9, opset_import: ["" : 20]>
agraph (float[2,3] X) => (float[2,3] Y) {
  R = Relu (X)
  Y = Gelu (R)
}
)";

TEST(ModelChecksTest, ADownConversionNamesEachBlockingNodeAndWhereItsOpFirstExists) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(kGelu20, "gelu20.onnxtxt", &model).ok());
  model.mutable_graph()->mutable_node(1)->set_name("act");
  const std::vector<ConversionBlocker> blockers = ConversionBlockers(model, 17);
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0].node, "act");
  EXPECT_EQ(blockers[0].op_version, 20);
  EXPECT_EQ(blockers[0].first_opset, 20);
  auto converted = ConvertOpset(model, 17);
  ASSERT_FALSE(converted.ok());
  EXPECT_NE(converted.status().message().find(
                "from opset 20 to opset 17: 1 node blocks it: node 'act' (Gelu version 20): Gelu "
                "first exists in opset 20, so no earlier opset has it"),
            std::string::npos)
      << converted.status().message();
  EXPECT_TRUE(ConversionBlockers(model, 20).empty());
  EXPECT_TRUE(ConversionBlockers(model, 21).empty());
}

TEST(ModelChecksTest, ABlockingNodeInASubgraphIsNamedByItsOpAndIndex) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(R"(
<ir_version: 9, opset_import: ["" : 20]>
agraph (bool C, float[2] X) => (float[2] Y) {
  Y = If (C) <then_branch = g1 () => (float[2] A) { A = Gelu (X) },
              else_branch = g2 () => (float[2] B) { B = Relu (X) }>
}
)",
                             "if20.onnxtxt", &model)
                  .ok());
  const std::vector<ConversionBlocker> blockers = ConversionBlockers(model, 18);
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0].Describe(),
            "node 'Gelu#0' (Gelu version 20): Gelu first exists in opset 20, so no earlier opset "
            "has it");
}

TEST(ModelChecksTest, AConvertibleModelConvertsDownAndChecks) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(R"(
<ir_version: 9, opset_import: ["" : 20]>
agraph (float[2,3] X) => (float[2,1] Y) {
  axes = Constant <value = int64[1] {1}> ()
  R = Relu (X)
  Y = ReduceMean <keepdims = 1> (R, axes)
}
)",
                             "mean20.onnxtxt", &model)
                  .ok());
  EXPECT_TRUE(ConversionBlockers(model, 17).empty());
  auto converted = ConvertOpset(model, 17);
  ASSERT_TRUE(converted.ok()) << converted.status().ToString();
  EXPECT_EQ(converted->opset_import(0).version(), 17);
  EXPECT_TRUE(CheckModelWithOnnx(*converted, {{"", 17}}, ".").ok());
}

TEST(ModelChecksTest, AStepWithoutAnAdapterBlocksNamingIt) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(R"(
<ir_version: 9, opset_import: ["" : 18]>
agraph (float[4] X) => (float[2] A, float[2] B) {
  A, B = Split <axis = 0, num_outputs = 2> (X)
}
)",
                             "split18.onnxtxt", &model)
                  .ok());
  const std::vector<ConversionBlocker> blockers = ConversionBlockers(model, 17);
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0].Describe(),
            "node 'Split#0' (Split version 18): ONNX's converter has no adapter for Split from "
            "opset 18 to 17");
}

TEST(ModelChecksTest, AnOpOnnxDoesNotKnowBlocks) {
  onnx::ModelProto model;
  ASSERT_TRUE(ParseModelText(kGelu20, "gelu20.onnxtxt", &model).ok());
  model.mutable_graph()->mutable_node(0)->set_op_type("NoSuchOp");
  const std::vector<ConversionBlocker> blockers = ConversionBlockers(model, 21);
  ASSERT_EQ(blockers.size(), 1u);
  EXPECT_EQ(blockers[0].Describe(),
            "node 'NoSuchOp#0' (NoSuchOp): ONNX knows no op NoSuchOp in the "
            "default domain");
}

}  // namespace
}  // namespace onnxgate
