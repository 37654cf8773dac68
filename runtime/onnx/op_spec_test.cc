// The schema adapter reports ONNX 1.23.2's limits and version histories.
#include "runtime/onnx/op_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

TEST(OpSpecTest, LimitsAreThoseOfTheLinkedRelease) {
  EXPECT_STREQ(OnnxReleaseVersion(), "1.23.2");
  EXPECT_EQ(MaxIrVersion(), 14);
  EXPECT_EQ(MaxOpset(""), 28);
  EXPECT_EQ(MaxOpset("ai.onnx"), 28);
  EXPECT_EQ(MaxOpset("ai.onnx.ml"), 5);
  EXPECT_EQ(MaxOpset("com.example"), -1);
  EXPECT_THAT(KnownDomains(), ::testing::IsSupersetOf({"", "ai.onnx.ml"}));
}

TEST(OpSpecTest, FindGivesTheActiveVersionAtAnOpset) {
  auto reduce_mean = OpSpec::Find("ReduceMean", 18, "");
  ASSERT_TRUE(reduce_mean.has_value());
  EXPECT_EQ(reduce_mean->since_version(), 18);
  EXPECT_EQ(reduce_mean->inputs().size(), 2u);  // axes became an input at 18
  EXPECT_EQ(reduce_mean->inputs()[1].option, FormalParameter::Option::kOptional);
  auto reduce_mean_17 = OpSpec::Find("ReduceMean", 17, "ai.onnx");
  ASSERT_TRUE(reduce_mean_17.has_value());
  EXPECT_EQ(reduce_mean_17->since_version(), 13);
  EXPECT_FALSE(OpSpec::Find("NoSuchOp", 18, "").has_value());
  EXPECT_FALSE(OpSpec::Find("Gelu", 19, "").has_value());  // Gelu starts at 20
}

TEST(OpSpecTest, TypeConstraintsAndTheirElementTypes) {
  auto cast = OpSpec::Find("Cast", 25, "");
  ASSERT_TRUE(cast.has_value());
  auto allowed = cast->AllowedElementTypes();
  ASSERT_EQ(allowed.count("T1"), 1u);
  EXPECT_EQ(allowed["T1"].count(DataType::kFloat8E4M3FN), 1u);
  EXPECT_EQ(allowed["T1"].count(DataType::kInt2), 1u);
  EXPECT_EQ(cast->type_constraints().at("T1").front().rfind("tensor(", 0), 0u);
}

TEST(OpSpecTest, ElementTypeOfTypeStringUnwrapsContainers) {
  EXPECT_EQ(ElementTypeOfTypeString("tensor(float)"), DataType::kFloat);
  EXPECT_EQ(ElementTypeOfTypeString("seq(tensor(int64))"), DataType::kInt64);
  EXPECT_EQ(ElementTypeOfTypeString("optional(seq(tensor(bool)))"), DataType::kBool);
  EXPECT_EQ(ElementTypeOfTypeString("tensor(float8e4m3fn)"), DataType::kFloat8E4M3FN);
  EXPECT_FALSE(ElementTypeOfTypeString("map(int64, tensor(float))").has_value());
}

TEST(OpSpecTest, VersionHistoriesReachTheNewestOpsets) {
  EXPECT_THAT(SinceVersions("", "Softmax"), ElementsAre(1, 11, 13));
  std::vector<int> reshape = SinceVersions("", "Reshape");
  ASSERT_FALSE(reshape.empty());
  EXPECT_GT(reshape.back(), 14);  // IR 10+ types widened it after ONNX 1.12
  const std::vector<OperatorVersions> all = AllOperators();
  EXPECT_GT(all.size(), 200u);
  bool attention = false;
  for (const OperatorVersions& o : all) {
    ASSERT_FALSE(o.since_versions.empty()) << o.op_type;
    EXPECT_LE(o.since_versions.back(), MaxOpset(o.domain)) << o.op_type;
    if (o.domain.empty() && o.op_type == "Attention") attention = true;
  }
  EXPECT_TRUE(attention);
}

}  // namespace
}  // namespace onnxgate
