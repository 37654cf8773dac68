// Tests of the cases that differ between the targets of a side-by-side run, and of their tables
// in the Markdown and HTML reports.
#include "reports/side_by_side_cases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reports/html_writer.h"
#include "reports/markdown_writer.h"
#include "reports/report_test_util.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// SideBySideRun with raw outcomes that match its verdicts: test_conv fails on onnxgate alone.
RunRecord SideBySideWithOutcomes() {
  RunRecord run = SideBySideRun();
  for (CaseRecord& c : run.cases) c.outcome = c.verdict;
  return run;
}

const std::vector<std::string> kTargets = {"onnxgate/ref", "onnxruntime/CPUExecutionProvider"};

TEST(SideBySideCasesTest, ListsTheCasesWhoseOutcomeDiffers) {
  const RunRecord run = SideBySideWithOutcomes();
  const std::vector<CaseAcrossTargets> rows = CasesDifferingAcrossTargets(run, kTargets);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].name, "test_conv");
  ASSERT_EQ(rows[0].records.size(), 2u);
  EXPECT_EQ(rows[0].records[0]->outcome, Verdict::kFail);
  EXPECT_EQ(rows[0].records[1]->outcome, Verdict::kPass);
}

TEST(SideBySideCasesTest, ACaseOnOneTargetAloneIsNotComparedAndOneTargetHasNone) {
  RunRecord run = SideBySideWithOutcomes();
  run.cases.pop_back();  // onnxruntime's test_conv
  EXPECT_TRUE(CasesDifferingAcrossTargets(run, kTargets).empty());
  const std::vector<std::string> three = {kTargets[0], "onnxgate/dnnl", kTargets[1]};
  run = SideBySideWithOutcomes();
  const std::vector<CaseAcrossTargets> rows = CasesDifferingAcrossTargets(run, three);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].records[1], nullptr) << "no case on onnxgate/dnnl";
  EXPECT_TRUE(CasesDifferingAcrossTargets(run, {kTargets[0]}).empty());
}

TEST(SideBySideCasesTest, ExpectedAndRawFailuresAreTheSameOutcome) {
  RunRecord run = SideBySideWithOutcomes();
  run.cases[3].outcome = Verdict::kFail;  // onnxruntime's test_conv fails too, as expected
  run.cases[3].verdict = Verdict::kXfail;
  EXPECT_TRUE(CasesDifferingAcrossTargets(run, kTargets).empty());
}

TEST(SideBySideCasesTest, MarkdownListsTheCaseWithAVerdictPerTarget) {
  const std::string md = RenderMarkdown(SideBySideWithOutcomes());
  EXPECT_THAT(md, HasSubstr("### Cases where the results differ (1)\n\n| Case | `onnxgate/ref` | "
                            "`onnxruntime/CPUExecutionProvider` |\n|---|---|---|\n"
                            "| `onnx-node/test_conv` | FAIL | PASS |\n"));
  RunRecord same = SideBySideWithOutcomes();
  for (CaseRecord& c : same.cases) c.outcome = c.verdict = Verdict::kPass;
  EXPECT_THAT(RenderMarkdown(same), HasSubstr("### Cases where the results differ (0)\n\nEvery "
                                              "case has the same outcome on each of them.\n"));
}

TEST(SideBySideCasesTest, HtmlListsTheCaseWithAVerdictBadgePerTarget) {
  const std::string html = RenderHtml(SideBySideWithOutcomes());
  const size_t table = html.find("<table class=\"data\" id=\"side-by-side-cases\">");
  ASSERT_NE(table, std::string::npos) << html;
  const std::string rows = html.substr(table, html.find("</table>", table) - table);
  EXPECT_THAT(rows, HasSubstr("<th>onnxgate/ref</th><th>onnxruntime/CPUExecutionProvider</th>"));
  EXPECT_THAT(rows, HasSubstr("<tr><td><code>onnx-node/test_conv</code></td><td><span "
                              "class=\"badge v-FAIL\">FAIL</span></td><td><span "
                              "class=\"badge v-PASS\">PASS</span></td></tr>"));
  EXPECT_THAT(rows, Not(HasSubstr("test_relu")));
}

}  // namespace
}  // namespace onnxgate
