#include "harness/latency/bench_judge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

BenchMeasurement Measured(const std::string& model, const std::string& ep, double ms,
                          const std::string& sha = "abc") {
  BenchMeasurement m;
  m.model = model;
  m.ep = ep;
  m.threads = 1;
  m.model_sha256 = sha;
  for (int i = 0; i < 20; ++i) m.samples_ms.push_back(ms + 0.001 * (i % 5));
  m.summary = Summarize(m.samples_ms);
  return m;
}

BaselineEntry Entry(const std::string& model, double ms, const std::string& sha = "abc") {
  const BenchMeasurement m = Measured(model, "ref", ms, sha);
  BaselineEntry e;
  e.model = model;
  e.threads = 1;
  e.model_sha256 = sha;
  e.samples_ms = m.samples_ms;
  e.median_ms = m.summary.median;
  return e;
}

TEST(BenchJudgeTest, EachMeasurementIsJudgedAgainstItsEpsBaseline) {
  BenchBaselines baselines;
  BaselineFile ref;
  ref.entries = {Entry("changed", 1.0, "old"), Entry("cnn", 1.0), Entry("mlp", 1.0)};
  baselines.files["ref"] = ref;
  baselines.paths["ref"] = "/b/ref.json";
  baselines.files["dnnl"] = std::nullopt;
  baselines.paths["dnnl"] = "/b/dnnl.json";
  const std::vector<BenchMeasurement> measured = {
      Measured("mlp", "ref", 2.0), Measured("cnn", "ref", 1.0), Measured("other", "ref", 1.0),
      Measured("changed", "ref", 1.0, "new"), Measured("mlp", "dnnl", 1.0)};
  const BenchJudgement j = JudgeAgainstBaselines(measured, baselines, LatencyThresholds());
  ASSERT_EQ(j.records.size(), 5u);
  EXPECT_EQ(j.records[0].verdict, LatencyVerdict::kRegression);
  EXPECT_EQ(j.records[1].verdict, LatencyVerdict::kUnchanged);
  EXPECT_EQ(j.records[2].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_THAT(j.records[2].message, HasSubstr("/b/ref.json has no entry for other at 1 thread"));
  EXPECT_THAT(j.records[3].message, HasSubstr("the model changed"));
  EXPECT_THAT(j.records[4].message, HasSubstr("/b/dnnl.json does not exist"));
  EXPECT_EQ(j.regressions, 1);
}

TEST(BenchJudgeTest, TheCandidateIsJudgedAgainstTheReferenceBesideIt) {
  const BenchJudgement j = JudgeAgainstReference(
      {Measured("mlp", "ref", 2.0), Measured("cnn", "ref", 1.0)},
      {Measured("mlp", "cpu", 1.0), Measured("cnn", "cpu", 1.0)}, {"a", "b"}, LatencyThresholds());
  ASSERT_EQ(j.records.size(), 2u);
  EXPECT_EQ(j.records[0].runtime, "a");
  EXPECT_EQ(j.records[0].against, "b/cpu");
  EXPECT_EQ(j.records[0].verdict, LatencyVerdict::kRegression);
  EXPECT_THAT(j.records[0].message, HasSubstr("b/cpu"));
  EXPECT_EQ(j.records[1].verdict, LatencyVerdict::kUnchanged);
  EXPECT_EQ(j.regressions, 1);
}

TEST(BenchJudgeTest, MeasurementsBecomeBaselineEntriesPerEp) {
  auto entries = ToBaselineEntries({Measured("mlp", "ref", 1.0), Measured("mlp", "dnnl", 2.0)},
                                   "2026-01-01T00:00:00Z");
  ASSERT_EQ(entries.size(), 2u);
  ASSERT_EQ(entries["dnnl"].size(), 1u);
  EXPECT_EQ(entries["dnnl"][0].model, "mlp");
  EXPECT_EQ(entries["dnnl"][0].recorded, "2026-01-01T00:00:00Z");
  EXPECT_EQ(entries["dnnl"][0].samples_ms.size(), 20u);
  EXPECT_DOUBLE_EQ(entries["ref"][0].median_ms, Summarize(entries["ref"][0].samples_ms).median);
}

}  // namespace
}  // namespace onnxgate
