// Tests of the thresholds file: defaults, first matching rule, EP restriction, bad values, and
// the committed golden/baselines/thresholds.json.
#include "harness/latency/thresholds.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

TEST(ThresholdsTest, RulesMatchByGlobFirstWins) {
  auto t = ParseLatencyThresholds(R"({
    "format": "onnxgate-latency-thresholds",
    "default_threshold": 0.08,
    "alpha": 0.005,
    "models": [
      {"pattern": "mlp", "ep": "dnnl", "threshold": 0.3, "reason": "tiny on dnnl"},
      {"pattern": "m*", "threshold": 0.2},
      {"pattern": "mobilenet*", "threshold": 0.5}
    ]})",
                                  "t.json");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_DOUBLE_EQ(t->alpha, 0.005);
  EXPECT_DOUBLE_EQ(t->For("resnet18", "ref"), 0.08);
  EXPECT_DOUBLE_EQ(t->For("mlp", "dnnl"), 0.3);
  EXPECT_DOUBLE_EQ(t->For("mlp", "ref"), 0.2);
  EXPECT_DOUBLE_EQ(t->For("mobilenet_v2", "ref"), 0.2);  // "m*" comes first
  ASSERT_EQ(t->rules.size(), 3u);
  EXPECT_EQ(t->rules[0].reason, "tiny on dnnl");
}

TEST(ThresholdsTest, DefaultsWhenFieldsOrFileAreAbsent) {
  auto t = ParseLatencyThresholds(R"({"format": "onnxgate-latency-thresholds"})", "t.json");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_DOUBLE_EQ(t->For("anything", "ref"), 0.10);
  EXPECT_DOUBLE_EQ(t->alpha, 0.01);
  auto missing = LoadLatencyThresholds("/nonexistent/thresholds.json");
  ASSERT_TRUE(missing.ok());
  EXPECT_DOUBLE_EQ(missing->default_threshold, 0.10);
}

TEST(ThresholdsTest, BadValuesAreRejectedNamingTheField) {
  auto neg = ParseLatencyThresholds(
      R"({"format": "onnxgate-latency-thresholds", "models": [{"pattern": "a", "threshold": -1}]})",
      "t.json");
  EXPECT_EQ(neg.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(neg.status().message(), HasSubstr("t.json: models[0].threshold"));
  auto alpha =
      ParseLatencyThresholds(R"({"format": "onnxgate-latency-thresholds", "alpha": 1})", "t.json");
  EXPECT_THAT(alpha.status().message(), HasSubstr("alpha"));
  auto nopattern = ParseLatencyThresholds(
      R"({"format": "onnxgate-latency-thresholds", "models": [{"threshold": 0.2}]})", "t.json");
  EXPECT_THAT(nopattern.status().message(), HasSubstr("models[0].pattern: required"));
  auto format = ParseLatencyThresholds(R"({"format": "x"})", "t.json");
  EXPECT_THAT(format.status().message(), HasSubstr("format"));
}

TEST(ThresholdsTest, CommittedFileIsValid) {
  auto t =
      LoadLatencyThresholds(std::string(ONNXGATE_SOURCE_DIR) + "/golden/baselines/thresholds.json");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_DOUBLE_EQ(t->default_threshold, 0.10);
  EXPECT_DOUBLE_EQ(t->alpha, 0.01);
}

}  // namespace
}  // namespace onnxgate
