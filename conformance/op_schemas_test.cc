// Tests for operator version history and active op versions from libonnx's schemas.
#include "conformance/op_schemas.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

const OperatorVersions* Find(const std::vector<OperatorVersions>& all, const std::string& domain,
                             const std::string& op) {
  for (const auto& o : all) {
    if (o.domain == domain && o.op_type == op) return &o;
  }
  return nullptr;
}

TEST(OpSchemasTest, AllOperatorsHaveVersionHistoriesUpToTheCoveredOpsets) {
  std::vector<OperatorVersions> all = AllOperators();
  EXPECT_GT(all.size(), 180u);
  const OperatorVersions* softmax = Find(all, "", "Softmax");
  ASSERT_NE(softmax, nullptr);
  EXPECT_THAT(softmax->since_versions, ElementsAre(1, 11, 13));
  const OperatorVersions* reshape = Find(all, "", "Reshape");
  ASSERT_NE(reshape, nullptr);
  EXPECT_THAT(reshape->since_versions, ElementsAre(1, 5, 13, 14));
  EXPECT_NE(Find(all, "ai.onnx.ml", "LabelEncoder"), nullptr);
  for (const auto& o : all) {
    EXPECT_LE(o.since_versions.back(), o.domain.empty() ? kMaxDefaultOpset : kMaxMlOpset) << o.op_type;
  }
}

TEST(OpSchemasTest, ActiveVersionsComeFromTheModelsOpset) {
  std::string dir = ONNXGATE_SOURCE_DIR "/suites/smoke/models/";
  auto softmax11 = ActiveOpsOfModel(dir + "softmax_opset11.onnxtxt");
  ASSERT_TRUE(softmax11.ok()) << softmax11.status().ToString();
  ASSERT_EQ(softmax11->size(), 1u);
  EXPECT_EQ((*softmax11)[0].op_type, "Softmax");
  EXPECT_EQ((*softmax11)[0].since_version, 11);
  auto missing = ActiveOpsOfModel(dir + "no_such_model.onnx");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace onnxgate
