// Tests for DiffReports: worse, better and other changes by raw outcome, cases in one report only,
// larger errors of cases that still pass, reports of one target each, and the renderings.
#include "harness/report_diff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

CaseRecord Case(const std::string& name, Verdict outcome, Verdict verdict,
                const std::string& ep = "ref") {
  CaseRecord c;
  c.suite = "s";
  c.name = name;
  c.ep = ep;
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

// A passing output "y" of set 0 with this largest error, under atol 1e-4 and rtol 0.
OutputComparison Output(double max_abs_error) {
  OutputComparison o;
  o.output_name = "y";
  o.passed = true;
  o.atol = 1e-4;
  o.max_abs_error = max_abs_error;
  o.min_passing_atol = max_abs_error;
  return o;
}

CaseRecord PassingWithError(const std::string& name, double max_abs_error) {
  CaseRecord c = Case(name, Verdict::kPass, Verdict::kPass);
  c.outputs.push_back(Output(max_abs_error));
  return c;
}

TEST(ReportDiffTest, ToleranceUsedIsTheLargerShareOfEitherKnob) {
  OutputComparison o = Output(5e-5);
  EXPECT_DOUBLE_EQ(OutputToleranceUsed(o), 0.5);
  o.rtol = 1e-3;
  o.min_passing_rtol = 8e-4;
  EXPECT_DOUBLE_EQ(OutputToleranceUsed(o), 0.8);
  o.atol = o.rtol = 0;  // exact comparison: nothing to use
  EXPECT_DOUBLE_EQ(OutputToleranceUsed(o), 0.0);
}

TEST(ReportDiffTest, AMarginGrowsWhenTheErrorMoreThanDoublesAndIsNotNoise) {
  CaseRecord failing_now = PassingWithError("failing_now", 1e-5);
  failing_now.outcome = Verdict::kFail;
  CaseRecord two_outputs = PassingWithError("two_outputs", 1e-5);
  two_outputs.outputs.push_back(Output(1e-6));
  two_outputs.outputs.back().output_name = "z";
  CaseRecord two_outputs_now = PassingWithError("two_outputs", 3e-5);
  two_outputs_now.outputs.push_back(Output(4e-5));  // x40: the output that grew most
  two_outputs_now.outputs.back().output_name = "z";
  const ReportDiff diff =
      DiffReports(RunOf({PassingWithError("grew", 1e-5), PassingWithError("from_zero", 0),
                         PassingWithError("noise", 1e-7), PassingWithError("x1.5", 2e-5),
                         PassingWithError("failing_now", 1e-5), two_outputs}),
                  RunOf({PassingWithError("grew", 5e-5), PassingWithError("from_zero", 2e-5),
                         PassingWithError("noise", 9e-6), PassingWithError("x1.5", 3e-5),
                         failing_now, two_outputs_now}));
  ASSERT_EQ(diff.margin_grew.size(), 3u);
  EXPECT_EQ(diff.margin_grew[0].name, "grew");
  EXPECT_DOUBLE_EQ(diff.margin_grew[0].error_before, 1e-5);
  EXPECT_DOUBLE_EQ(diff.margin_grew[0].error_after, 5e-5);
  EXPECT_DOUBLE_EQ(diff.margin_grew[0].tolerance_used, 0.5);
  EXPECT_EQ(diff.margin_grew[1].name, "from_zero");
  EXPECT_EQ(diff.margin_grew[2].name, "two_outputs");
  EXPECT_EQ(diff.margin_grew[2].output, "z");
  EXPECT_EQ(diff.Count(VerdictChange::kWorse), 1u) << "failing_now is worse, not a margin";
  EXPECT_EQ(diff.margin_grew[0].op_version, "Relu v14");

  const std::string text = RenderReportDiffText(diff);
  EXPECT_THAT(text, HasSubstr("1 worse, 0 better, 0 changed otherwise, 3 with a larger error "
                              "(still passing)"));
  EXPECT_THAT(text, HasSubstr("  larger error, still passing: Relu v14\n    s/grew [ref]  y (set "
                              "0): max abs error 1e-05 -> 5e-05 (x5), 50.0% of its tolerance\n"));
  const std::string json = RenderReportDiffJson(diff);
  EXPECT_THAT(json, HasSubstr("\"margin_grew\": 3"));
  EXPECT_THAT(json, HasSubstr("\"max_abs_error_after\": 5e-05"));
  EXPECT_THAT(RenderReportDiffMarkdown(diff),
              HasSubstr("| Relu v14 | `s/grew [ref]` | y (set 0) | 1e-05 | 5e-05 | 50.0% |"));
}

TEST(ReportDiffTest, ReportsOfOneTargetEachAreMatchedByCase) {
  const ReportDiff diff = DiffReports(
      RunOf({Case("a", Verdict::kPass, Verdict::kPass), Case("b", Verdict::kPass, Verdict::kPass)}),
      RunOf({Case("a", Verdict::kFail, Verdict::kFail, "broken"),
             Case("b", Verdict::kPass, Verdict::kPass, "broken")}));
  EXPECT_TRUE(diff.only_before.empty());
  EXPECT_TRUE(diff.only_after.empty());
  ASSERT_EQ(diff.changes.size(), 1u);
  EXPECT_EQ(diff.changes[0].target, "broken");
  EXPECT_EQ(diff.target_before, "ref");
  EXPECT_EQ(diff.target_after, "broken");
  EXPECT_THAT(ReportDiffSummary(diff), HasSubstr("cases on ref matched with the same cases on "
                                                 "broken"));
  EXPECT_THAT(RenderReportDiffJson(diff), HasSubstr("\"targets_matched\": {\n    \"after\": "
                                                    "\"broken\",\n    \"before\": \"ref\""));
}

TEST(ReportDiffTest, ReportsOfSeveralTargetsAreMatchedByTarget) {
  const ReportDiff diff = DiffReports(RunOf({Case("a", Verdict::kPass, Verdict::kPass),
                                             Case("a", Verdict::kPass, Verdict::kPass, "dnnl")}),
                                      RunOf({Case("a", Verdict::kFail, Verdict::kFail, "broken"),
                                             Case("a", Verdict::kPass, Verdict::kPass, "dnnl")}));
  EXPECT_TRUE(diff.changes.empty());
  EXPECT_EQ(diff.only_before, std::vector<std::string>{"s/a [ref]"});
  EXPECT_EQ(diff.only_after, std::vector<std::string>{"s/a [broken]"});
  EXPECT_TRUE(diff.target_before.empty());
}

TEST(ReportDiffTest, HtmlGroupsByDirectionAndOpVersionAndEscapes) {
  CaseRecord hostile = Case("<b>&x", Verdict::kPass, Verdict::kPass);
  CaseRecord hostile_now = Case("<b>&x", Verdict::kCrash, Verdict::kCrash);
  hostile_now.message = "died <script>";
  const ReportDiff diff = DiffReports(
      RunOf({hostile, Case("b", Verdict::kFail, Verdict::kFail), PassingWithError("grew", 1e-5)}),
      RunOf({hostile_now, Case("b", Verdict::kPass, Verdict::kPass),
             PassingWithError("grew", 5e-5)}));
  const std::string html = RenderReportDiffHtml(diff, "release<1>.json", "candidate.json");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(html, HasSubstr("<style>\nbody{")) << "the run report's stylesheet";
  EXPECT_THAT(html, HasSubstr("<p id=\"summary\" class=\"gate gate-failed\">1 worse, 1 better"));
  EXPECT_THAT(html, HasSubstr("<code>release&lt;1&gt;.json</code>"));
  EXPECT_THAT(html, HasSubstr("<code>s/&lt;b&gt;&amp;x</code>"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  const size_t worse = html.find("<h2 id=\"worse\">Worse (1)</h2>\n<h3>Relu v14 (1)</h3>");
  const size_t better = html.find("<h2 id=\"better\">Better (1)</h2>");
  const size_t margin = html.find("<h2 id=\"margin-grew\">Larger errors, still passing (1)</h2>");
  ASSERT_NE(worse, std::string::npos) << html;
  EXPECT_LT(worse, better);
  EXPECT_LT(better, margin);
  EXPECT_THAT(html, HasSubstr("<span class=\"badge v-CRASH\">CRASH</span>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">50.0%</td>"));
  const ReportDiff none = DiffReports(RunOf({}), RunOf({}));
  EXPECT_THAT(RenderReportDiffHtml(none, "a", "b"), HasSubstr("class=\"gate gate-passed\""));
}

}  // namespace
}  // namespace onnxgate
