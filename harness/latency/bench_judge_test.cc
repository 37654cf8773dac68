#include "harness/latency/bench_judge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

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
  EXPECT_THAT(j.records[2].message,
              StartsWith("new configuration: the baseline /b/ref.json has no entry for other at "
                         "1 thread(s)"));
  EXPECT_EQ(j.records[3].verdict, LatencyVerdict::kUnchanged);
  EXPECT_THAT(j.records[3].message, StartsWith("model changed (hash old -> new): +0.0%; median"));
  EXPECT_EQ(j.records[4].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_THAT(j.records[4].message,
              StartsWith("new configuration: no baseline for this machine: /b/dnnl.json does "
                         "not exist"));
  EXPECT_EQ(j.regressions, 1);
  EXPECT_EQ(j.new_configurations, 2);
  EXPECT_EQ(j.unreliable, 0);
}

BenchBaselines RefBaselines(std::vector<BaselineEntry> entries) {
  BenchBaselines baselines;
  BaselineFile ref;
  ref.entries = std::move(entries);
  baselines.files["ref"] = ref;
  baselines.paths["ref"] = "/b/ref.json";
  return baselines;
}

// A model re-exported under its name (another hash) is compared with the entry of that name and
// configuration, and the verdict is the comparator's.
TEST(BenchJudgeTest, AChangedModelIsComparedByNameAndSaysSo) {
  const std::string before = "1a2b3c4d" + std::string(56, '0');
  const std::string after = "5e6f7a8b" + std::string(56, '1');
  const BenchBaselines baselines = RefBaselines({Entry("resnet18", 1.0, before)});
  // The baseline's median is 1.002 ms; 1.002 * 1.156 = 1.158312 ms is 15.6% slower.
  const BenchJudgement slower =
      JudgeAgainstBaselines({Measured("resnet18", "ref", 1.156312, after)}, baselines, {});
  ASSERT_EQ(slower.records.size(), 1u);
  EXPECT_EQ(slower.records[0].verdict, LatencyVerdict::kRegression);
  EXPECT_THAT(slower.records[0].message,
              StartsWith("model changed (hash 1a2b3c4d -> 5e6f7a8b): +15.6%; median 1.158 ms vs "
                         "baseline 1.002 ms (+15.6%, threshold 10.0%): slower"));
  EXPECT_THAT(slower.records[0].message, HasSubstr(": slower"));
  ASSERT_TRUE(slower.records[0].baseline_median_ms.has_value());
  EXPECT_EQ(slower.regressions, 1);
  EXPECT_EQ(slower.new_configurations, 0);

  const BenchJudgement same =
      JudgeAgainstBaselines({Measured("resnet18", "ref", 1.0, after)}, baselines, {});
  EXPECT_EQ(same.records[0].verdict, LatencyVerdict::kUnchanged);
  EXPECT_EQ(same.regressions, 0);
  // An entry recorded without a hash compares without the remark.
  const BenchJudgement unknown = JudgeAgainstBaselines(
      {Measured("resnet18", "ref", 1.0, after)}, RefBaselines({Entry("resnet18", 1.0, "")}), {});
  EXPECT_THAT(unknown.records[0].message, StartsWith("median"));
}

// Another thread count or other shapes are another configuration: new, never compared with the
// entry of another.
TEST(BenchJudgeTest, AConfigurationNeverMeasuredIsNew) {
  BaselineEntry wide = Entry("mlp", 1.0);
  wide.shapes = "batch=4";
  const BenchBaselines baselines = RefBaselines({Entry("mlp", 1.0), wide});
  BenchMeasurement two_threads = Measured("mlp", "ref", 1.0);
  two_threads.threads = 2;
  BenchMeasurement other_shapes = Measured("mlp", "ref", 1.0);
  other_shapes.shapes = "batch=8";
  BenchMeasurement same_shapes = Measured("mlp", "ref", 1.0);
  same_shapes.shapes = "batch=4";
  const BenchJudgement j =
      JudgeAgainstBaselines({two_threads, other_shapes, same_shapes}, baselines, {});
  ASSERT_EQ(j.records.size(), 3u);
  EXPECT_EQ(j.records[0].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_EQ(j.records[0].message,
            "new configuration: the baseline /b/ref.json has no entry for mlp at 2 thread(s) (it "
            "holds 1 thread(s); 1 thread(s), shapes batch=4)");
  EXPECT_FALSE(j.records[0].baseline_median_ms.has_value());
  EXPECT_EQ(j.records[1].verdict, LatencyVerdict::kNoBaseline);
  EXPECT_THAT(j.records[1].message,
              HasSubstr("has no entry for mlp at 1 thread(s), shapes batch=8 (it holds"));
  EXPECT_EQ(j.records[2].verdict, LatencyVerdict::kUnchanged);
  EXPECT_EQ(j.new_configurations, 2);
  EXPECT_EQ(j.regressions, 0);
}

BenchMeasurement Noisy(const std::string& model, const std::string& ep) {
  BenchMeasurement m = Measured(model, ep, 1.0);
  for (size_t i = 0; i < m.samples_ms.size(); ++i) m.samples_ms[i] = i % 2 ? 1.3 : 0.7;
  m.summary = Summarize(m.samples_ms);
  return m;
}

// A spread wider than the threshold on either side makes the verdict unreliable, and the record
// says why; a quiet measurement says nothing.
TEST(BenchJudgeTest, NoiseBeyondTheThresholdMakesTheVerdictUnreliable) {
  BaselineEntry noisy_entry = Entry("cnn", 1.0);
  noisy_entry.samples_ms = Noisy("cnn", "ref").samples_ms;
  const BenchBaselines baselines =
      RefBaselines({Entry("mlp", 1.0), noisy_entry, Entry("quiet", 1.0)});
  const BenchJudgement j =
      JudgeAgainstBaselines({Noisy("mlp", "ref"), Measured("cnn", "ref", 1.0),
                             Measured("quiet", "ref", 1.0), Noisy("new", "ref")},
                            baselines, {});
  ASSERT_EQ(j.records.size(), 4u);
  EXPECT_THAT(j.records[0].noise, StartsWith("cv 30.8% now and 0.1% in the baseline against a "
                                             "threshold of 10.0%"));
  EXPECT_THAT(j.records[0].noise, HasSubstr("unreliable"));
  EXPECT_THAT(j.records[1].noise, StartsWith("cv 0.1% now and 30.8% in the baseline"));
  EXPECT_EQ(j.records[2].noise, "");
  EXPECT_EQ(j.records[3].noise, "");  // nothing was compared: no verdict to doubt
  EXPECT_EQ(j.unreliable, 2);

  LatencyThresholds wide;
  wide.default_threshold = 0.5;
  EXPECT_EQ(JudgeAgainstBaselines({Noisy("mlp", "ref")}, baselines, wide).records[0].noise, "");

  const BenchJudgement against = JudgeAgainstReference(
      {Noisy("mlp", "ref"), Measured("cnn", "ref", 1.0)},
      {Measured("mlp", "cpu", 1.0), Measured("cnn", "cpu", 1.0)}, {"a", "b"}, {});
  EXPECT_THAT(against.records[0].noise, HasSubstr("in the b/cpu against a threshold of 10.0%"));
  EXPECT_EQ(against.records[1].noise, "");
  EXPECT_EQ(against.unreliable, 1);
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

TEST(BenchJudgeTest, ABaselineEntryKeepsTheShapesAndTheHash) {
  BenchMeasurement m = Measured("bert", "ref", 1.0, "feed");
  m.shapes = "batch=4,seq=128";
  auto entries = ToBaselineEntries({m}, "2026-01-01T00:00:00Z");
  ASSERT_EQ(entries["ref"].size(), 1u);
  EXPECT_EQ(entries["ref"][0].shapes, "batch=4,seq=128");
  EXPECT_EQ(entries["ref"][0].model_sha256, "feed");
}

}  // namespace
}  // namespace onnxgate
