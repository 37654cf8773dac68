// Tests of the nesting pre-check: deep input is refused with the file and line, brackets inside
// strings and comments do not count, and ordinary files pass.
#include "runtime/base/nesting_depth.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

TEST(NestingDepthTest, HundredThousandDeepArrayIsRefusedNamingTheFile) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Status st = CheckNestingDepth(deep, NestingSyntax::kJson, kMaxJsonNesting, "tol.json");
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("tol.json: brackets nest deeper than 64 levels (line 1)"));
}

TEST(NestingDepthTest, TheLimitItselfPassesAndOneMoreFails) {
  const std::string at = std::string(64, '{') + std::string(64, '}');
  EXPECT_TRUE(CheckNestingDepth(at, NestingSyntax::kJson, 64, "a").ok());
  const std::string over = "\n\n" + std::string(65, '(');
  Status st = CheckNestingDepth(over, NestingSyntax::kJson, 64, "a");
  EXPECT_THAT(st.message(), HasSubstr("(line 3)"));
}

TEST(NestingDepthTest, BracketsInStringsAndCommentsDoNotCount) {
  const std::string json = "{\"k\": \"[[[[[[[[\\\"[[[[\", \"v\": [1, 2]}";
  EXPECT_TRUE(CheckNestingDepth(json, NestingSyntax::kJson, 2, "j").ok());
  const std::string text = "# ((((((((\n<ir_version: 8> g (float[2] x) => (float[2] y) {}";
  EXPECT_TRUE(CheckNestingDepth(text, NestingSyntax::kOnnxText, 3, "m.onnxtxt").ok());
  // In JSON '#' is no comment: the brackets after it count.
  EXPECT_FALSE(CheckNestingDepth("#[[[[", NestingSyntax::kJson, 3, "j").ok());
}

TEST(NestingDepthTest, SiblingsDoNotAddUp) {
  std::string many;
  for (int i = 0; i < 10000; ++i) many += "[[1]],";
  EXPECT_TRUE(CheckNestingDepth("[" + many + "0]", NestingSyntax::kJson, 3, "j").ok());
}

}  // namespace
}  // namespace onnxgate
