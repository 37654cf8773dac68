// Active op versions of models, from ONNX's schemas at each model's opset.
#include "conformance/op_schemas.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "runtime/base/contained_file.h"
#include "runtime/onnx/text_format.h"

namespace onnxgate {
namespace {

onnx::ModelProto ParsedText(const std::string& text) {
  onnx::ModelProto model;
  Status parsed = ParseModelText(text, "model", &model);
  EXPECT_TRUE(parsed.ok()) << parsed.ToString();
  return model;
}

TEST(OpSchemasTest, ActiveVersionsComeFromTheModelsOpset) {
  StatusOr<std::string> text = ReadRegularFile(
      ONNXGATE_SOURCE_DIR "/suites/smoke/models/softmax_opset11.onnxtxt", kMaxProtobufFileBytes);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  std::vector<ActiveOp> softmax11 = ActiveOpsOfModel(ParsedText(*text));
  ASSERT_EQ(softmax11.size(), 1u);
  EXPECT_EQ(softmax11[0].op_type, "Softmax");
  EXPECT_EQ(softmax11[0].since_version, 11);
  // ReduceMean at opset 18 is ReduceMean-18 (axes as an input), not -13.
  std::vector<ActiveOp> reduce_mean = ActiveOpsOfModel(ParsedText(
      "<ir_version: 10, opset_import: [\"\" : 18]>\n"
      "g (float[2,3] X, int64[1] axes) => (float[2,1] Y) { Y = ReduceMean (X, axes) }\n"));
  ASSERT_EQ(reduce_mean.size(), 1u);
  EXPECT_EQ(reduce_mean[0].since_version, 18);
}

// Ops in subgraphs count, each op version once, in order of first use; "ai.onnx" is the default
// domain, and an op ONNX does not know at the model's opset has version 0.
TEST(OpSchemasTest, SubgraphsAndDomainSpellings) {
  std::vector<ActiveOp> ops = ActiveOpsOfModel(
      ParsedText("<ir_version: 10, opset_import: [\"\" : 13, \"com.example\" : 1]>\n"
                 "g (bool c, float[2] X) => (float[2] Y) {\n"
                 "  Y = If (c) <then_branch = t () => (float[2] A) { A = ai.onnx.Relu (X) },\n"
                 "              else_branch = e () => (float[2] B) { B = Relu (X) }>\n"
                 "  Z = com.example.Custom (X)\n"
                 "}\n"));
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0], (ActiveOp{"", "If", 13}));
  EXPECT_EQ(ops[1], (ActiveOp{"", "Relu", 13}));
  EXPECT_EQ(ops[2], (ActiveOp{"com.example", "Custom", 0}));
}

}  // namespace
}  // namespace onnxgate
