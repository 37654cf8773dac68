// Tests for DiffReports: worse, better and other changes by raw outcome, cases in one report only,
// and the renderings.
#include "harness/report_diff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

CaseRecord Case(const std::string& name, Verdict outcome, Verdict verdict) {
  CaseRecord c;
  c.suite = "s";
  c.name = name;
  c.ep = "ref";
  c.op_versions["Relu"] = 14;
  c.outcome = outcome;
  c.verdict = verdict;
  return c;
}

RunRecord RunOf(std::vector<CaseRecord> cases) {
  RunRecord run;
  run.cases = std::move(cases);
  return run;
}

TEST(ReportDiffTest, ChangesAreJudgedByRawOutcome) {
  const RunRecord release = RunOf(
      {Case("a", Verdict::kPass, Verdict::kPass), Case("b", Verdict::kFail, Verdict::kXfail),
       Case("c", Verdict::kFail, Verdict::kFail), Case("d", Verdict::kFail, Verdict::kXfail),
       Case("e", Verdict::kPass, Verdict::kPass), Case("gone", Verdict::kPass, Verdict::kPass)});
  const RunRecord candidate = RunOf(
      {Case("a", Verdict::kFail, Verdict::kXfail), Case("b", Verdict::kPass, Verdict::kXpass),
       Case("c", Verdict::kCrash, Verdict::kCrash),
       Case("d", Verdict::kUnresolved, Verdict::kUnresolved),
       Case("e", Verdict::kPass, Verdict::kPass), Case("new", Verdict::kPass, Verdict::kPass)});
  const ReportDiff diff = DiffReports(release, candidate);
  ASSERT_EQ(diff.changes.size(), 4u);
  EXPECT_EQ(diff.changes[0].change, VerdictChange::kWorse) << "a passed and now fails, expected "
                                                              "or not";
  EXPECT_EQ(diff.changes[1].change, VerdictChange::kBetter);
  EXPECT_EQ(diff.changes[2].change, VerdictChange::kWorse) << "a new crash";
  EXPECT_EQ(diff.changes[3].change, VerdictChange::kOther);
  EXPECT_EQ(diff.Count(VerdictChange::kWorse), 2u);
  EXPECT_EQ(diff.only_before, std::vector<std::string>{"s/gone [ref]"});
  EXPECT_EQ(diff.only_after, std::vector<std::string>{"s/new [ref]"});
  EXPECT_EQ(diff.changes[0].op_version, "Relu v14");
}

TEST(ReportDiffTest, RenderingsCountAndListTheChangesWorseFirst) {
  const ReportDiff diff = DiffReports(
      RunOf({Case("a", Verdict::kFail, Verdict::kFail), Case("b", Verdict::kPass, Verdict::kPass)}),
      RunOf({Case("a", Verdict::kPass, Verdict::kPass),
             Case("b", Verdict::kTimeout, Verdict::kTimeout)}));
  const std::string text = RenderReportDiffText(diff);
  EXPECT_THAT(text, HasSubstr("1 worse, 1 better, 0 changed otherwise"));
  EXPECT_LT(text.find("PASS -> TIMEOUT"), text.find("FAIL -> PASS"));
  EXPECT_THAT(RenderReportDiffMarkdown(diff), HasSubstr("| worse | Relu v14 | `s/b [ref]` |"));
  const std::string json = RenderReportDiffJson(diff);
  EXPECT_THAT(json, HasSubstr("\"worse\": 1"));
  EXPECT_THAT(json, HasSubstr("\"after\": \"TIMEOUT\""));
}

TEST(ReportDiffTest, LongListsAreCut) {
  std::vector<CaseRecord> before, after;
  for (int i = 0; i < 5; ++i) {
    before.push_back(Case("c" + std::to_string(i), Verdict::kPass, Verdict::kPass));
    after.push_back(Case("c" + std::to_string(i), Verdict::kFail, Verdict::kFail));
  }
  EXPECT_THAT(RenderReportDiffText(DiffReports(RunOf(before), RunOf(after)), 2),
              HasSubstr("... and 3 more"));
}

}  // namespace
}  // namespace onnxgate
