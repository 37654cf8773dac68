// Tests for MergeShardReports: shards of one run merge into its report; reports of other runs,
// repeated shards and missing shards are refused, naming the files.
#include "harness/report_merge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

CaseRecord Case(const std::string& suite, const std::string& name, Verdict verdict) {
  CaseRecord c;
  c.suite = suite;
  c.name = name;
  c.ep = "ref";
  c.op_types = {"Relu"};
  c.opset_imports[""] = 13;
  c.op_versions["Relu"] = 13;
  c.outcome = c.verdict = verdict;
  return c;
}

RunRecord Shard(int64_t index, int64_t count, std::vector<CaseRecord> cases) {
  RunRecord run;
  run.tool_version = "1.0";
  run.runtime_name = "onnxgate";
  run.suites = {"b", "a"};
  run.selection.eps = {"ref"};
  run.selection.shard_index = index;
  run.selection.shard_count = count;
  run.isolation = "worker";
  run.cases = std::move(cases);
  return run;
}

TEST(ReportMergeTest, ShardsMergeIntoTheRunInSuiteOrder) {
  const std::vector<RunRecord> shards = {
      Shard(1, 2, {Case("a", "y", Verdict::kFail), Case("b", "z", Verdict::kPass)}),
      Shard(0, 2, {Case("b", "c", Verdict::kPass), Case("a", "x", Verdict::kXfail)})};
  auto merged = MergeShardReports(shards, {"s1.json", "s0.json"});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  ASSERT_EQ(merged->cases.size(), 4u);
  EXPECT_EQ(merged->cases[0].suite + "/" + merged->cases[0].name, "b/c");
  EXPECT_EQ(merged->cases[1].suite + "/" + merged->cases[1].name, "b/z");
  EXPECT_EQ(merged->cases[2].suite + "/" + merged->cases[2].name, "a/x");
  EXPECT_EQ(merged->cases[3].suite + "/" + merged->cases[3].name, "a/y");
  EXPECT_EQ(merged->selection.shard_count, 1);
  EXPECT_EQ(merged->totals[Verdict::kPass], 2u);
  EXPECT_FALSE(merged->matrix.empty());
  EXPECT_FALSE(merged->coverage.empty());
}

TEST(ReportMergeTest, ReportsOfAnotherRunAreRefusedNamingWhatDiffers) {
  RunRecord other = Shard(1, 2, {});
  other.tool_version = "2.0";
  auto merged = MergeShardReports({Shard(0, 2, {}), other}, {"s0.json", "s1.json"});
  ASSERT_FALSE(merged.ok());
  EXPECT_THAT(merged.status().message(),
              HasSubstr("s1.json is not a shard of the run of s0.json: tool version '1.0' "
                        "against '2.0'"));
  RunRecord eps = Shard(1, 2, {});
  eps.selection.eps = {"dnnl"};
  EXPECT_THAT(MergeShardReports({Shard(0, 2, {}), eps}, {"s0.json", "s1.json"}).status().message(),
              HasSubstr("EPs 'ref' against 'dnnl'"));
}

TEST(ReportMergeTest, ARepeatedOrMissingShardIsRefused) {
  EXPECT_THAT(MergeShardReports({Shard(0, 2, {}), Shard(0, 2, {})}, {"a.json", "b.json"})
                  .status()
                  .message(),
              HasSubstr("b.json is shard 0 again"));
  EXPECT_THAT(MergeShardReports({Shard(0, 3, {}), Shard(2, 3, {})}, {"a.json", "b.json"})
                  .status()
                  .message(),
              HasSubstr("the run has 3 shard(s) and 2 were given"));
}

TEST(ReportMergeTest, AnInterruptedShardMakesTheRunInterrupted) {
  RunRecord stopped = Shard(1, 2, {});
  stopped.status = RunStatus::kInterrupted;
  stopped.status_message = "interrupted by SIGTERM";
  auto merged = MergeShardReports({Shard(0, 2, {}), stopped}, {"a.json", "b.json"});
  ASSERT_TRUE(merged.ok());
  EXPECT_EQ(merged->status, RunStatus::kInterrupted);
}

TEST(ReportMergeTest, TheGateIsJudgedAgainOverEveryCase) {
  RunRecord a = Shard(0, 2, {Case("a", "x", Verdict::kPass)});
  RunRecord b = Shard(1, 2, {Case("a", "y", Verdict::kXpass)});
  for (RunRecord* shard : {&a, &b}) {
    shard->gate.emplace();
    shard->gate->passed = true;
  }
  a.gate->expectations.push_back({"", "ref", "conformance/expectations/ref.json", true, 3});
  auto strict = MergeShardReports({a, b}, {"a.json", "b.json"});
  ASSERT_TRUE(strict.ok() && strict->gate);
  EXPECT_FALSE(strict->gate->passed);
  EXPECT_EQ(strict->gate->unexpected.xpass, 1);
  EXPECT_EQ(strict->gate->expectations.size(), 1u);
  auto lenient = MergeShardReports({a, b}, {"a.json", "b.json"}, /*strict=*/false);
  ASSERT_TRUE(lenient.ok() && lenient->gate);
  EXPECT_TRUE(lenient->gate->passed);
}

TEST(ReportMergeTest, TheComparisonWithTheReleaseIsSummedOverTheShards) {
  RunRecord a = Shard(0, 2, {Case("a", "x", Verdict::kPass)});
  RunRecord b = Shard(1, 2, {Case("a", "y", Verdict::kPass)});
  for (RunRecord* shard : {&a, &b}) {
    shard->gate.emplace();
    shard->gate->passed = true;
    shard->gate->against_report = "release.json";
    shard->gate->better_than_release = 1;
  }
  b.gate->worse_than_release = 2;
  b.gate->passed = false;
  auto merged = MergeShardReports({a, b}, {"a.json", "b.json"});
  ASSERT_TRUE(merged.ok() && merged->gate);
  EXPECT_FALSE(merged->gate->passed);
  EXPECT_EQ(merged->gate->worse_than_release, 2);
  EXPECT_EQ(merged->gate->better_than_release, 2);
  b.gate->against_report = "other-release.json";
  auto refused = MergeShardReports({a, b}, {"a.json", "b.json"});
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("release report"));
}

}  // namespace
}  // namespace onnxgate
