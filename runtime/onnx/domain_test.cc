// The default domain's spellings: "" and "ai.onnx" are one domain, everything else is another.
#include "runtime/onnx/domain.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

namespace onnxgate {
namespace {

TEST(DomainTest, TheDefaultDomainHasTwoSpellings) {
  EXPECT_TRUE(IsDefaultDomain(""));
  EXPECT_TRUE(IsDefaultDomain("ai.onnx"));
  for (const char* other : {"ai.onnx.ml", "ai.onnx.preview.training", "com.microsoft", "ai",
                            "ai.onnx.", "AI.ONNX", " ai.onnx"}) {
    EXPECT_FALSE(IsDefaultDomain(other)) << other;
    EXPECT_EQ(NormalizeDomain(other), other);
    EXPECT_EQ(DomainDisplayName(other), other);
  }
  EXPECT_EQ(NormalizeDomain(""), "");
  EXPECT_EQ(NormalizeDomain("ai.onnx"), "");
  EXPECT_EQ(DomainDisplayName(""), "ai.onnx");
  EXPECT_EQ(DomainDisplayName("ai.onnx"), "ai.onnx");
}

TEST(DomainTest, IsOnnxOpNeedsTheOpTypeAndTheDefaultDomain) {
  onnx::NodeProto node;
  node.set_op_type("Conv");
  EXPECT_TRUE(IsOnnxOp(node, "Conv"));
  EXPECT_FALSE(IsOnnxOp(node, "ConvTranspose"));
  EXPECT_FALSE(IsOnnxOp(node, "conv"));
  node.set_domain("ai.onnx");
  EXPECT_TRUE(IsOnnxOp(node, "Conv"));
  node.set_domain("com.microsoft");
  EXPECT_FALSE(IsOnnxOp(node, "Conv"));
  node.set_domain("ai.onnx.ml");
  EXPECT_FALSE(IsOnnxOp(node, "Conv"));
}

}  // namespace
}  // namespace onnxgate
