// Tests of the text-format adapter on hostile input: nesting past the limit is refused before
// the recursive parser sees it, and a malformed number names the file and the literal.
#include "runtime/onnx/text_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "runtime/base/nesting_depth.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// An If whose then_branch holds an If, `depth` times.
std::string NestedIfModel(int depth) {
  std::string body = "z = Identity (x)";
  for (int i = 0; i < depth; ++i) {
    body = "z = If (c) <then_branch = g" + std::to_string(i) + " () => (float[2] z) { " + body +
           " }, else_branch = e" + std::to_string(i) + " () => (float[2] z) { z = Identity (x) }>";
  }
  return "<ir_version: 8, opset_import: [\"\" : 13]>\nm (bool c, float[2] x) => (float[2] z) {\n" +
         body + "\n}\n";
}

TEST(TextFormatTest, ShallowNestingParses) {
  onnx::ModelProto model;
  Status st = ParseModelText(NestedIfModel(3), "nested.onnxtxt", &model);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(model.graph().node(0).op_type(), "If");
}

TEST(TextFormatTest, EightThousandNestedIfsAreRefusedNotACrash) {
  onnx::ModelProto model;
  Status st = ParseModelText(NestedIfModel(8000), "deep.onnxtxt", &model);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("deep.onnxtxt"));
  EXPECT_THAT(st.message(),
              HasSubstr("nest deeper than " + std::to_string(kMaxOnnxTextNesting) + " levels"));
}

TEST(TextFormatTest, AnOutOfRangeNumberNamesTheFileAndTheProblem) {
  const std::string text =
      "<ir_version: 8, opset_import: [\"\" : 13]>\n"
      "m () => (float y) { y = Constant <value_float = 1e999999> () }\n";
  onnx::ModelProto model;
  Status st = ParseModelText(text, "big.onnxtxt", &model);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("big.onnxtxt: not a valid ONNX text model"));
  EXPECT_THAT(st.message(), HasSubstr("1e999999"));
}

}  // namespace
}  // namespace onnxgate
