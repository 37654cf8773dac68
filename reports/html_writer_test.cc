// Tests of the HTML report: the page parses as HTML and as XML, the grid has one cell per matrix
// entry, failing cases show their comparisons, hostile text is escaped, the size stays sane.
#include "reports/html_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "reports/report_test_util.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class HtmlWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (RunCommand("command -v xmllint").exit_code != 0) GTEST_SKIP() << "xmllint not installed";
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("html_writer_test_" + std::to_string(::getpid()));
    path_ = (dir_ / "report.html").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const RunRecord& run, const HtmlOptions& options = {}) {
    Status st = WriteHtml(run, path_, options);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  // The string value of an XPath expression over the written page, read as XML.
  std::string XPath(const std::string& expression) {
    CommandResult r = RunCommand("xmllint --xpath '" + expression + "' '" + path_ + "'");
    EXPECT_EQ(r.exit_code, 0) << expression << ": " << r.output;
    if (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
    return r.output;
  }

  // Parses the page with libxml2's HTML parser, which knows HTML 4 only: it reports the HTML5
  // and SVG elements it does not know, which browsers handle, and those are the only complaints
  // allowed. Returns the other complaints.
  std::string HtmlParserComplaints() {
    CommandResult r = RunCommand("xmllint --html --noout '" + path_ + "'");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    static const std::regex kKnownTag(
        "HTML parser error : Tag (svg|rect|text|g|details|summary) invalid");
    std::istringstream lines(r.output);
    std::string line, complaints;
    while (std::getline(lines, line)) {
      const bool complaint = line.find("parser error") != std::string::npos ||
                             line.find("parser warning") != std::string::npos;
      if (complaint && !std::regex_search(line, kKnownTag)) complaints += line + "\n";
    }
    return complaints;
  }

  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(HtmlWriterTest, ParsesAsHtmlAndAsXml) {
  Write(SampleRun());
  EXPECT_EQ(HtmlParserComplaints(), "");
  CommandResult xml = RunCommand("xmllint --noout '" + path_ + "'");
  EXPECT_EQ(xml.exit_code, 0) << xml.output;
  EXPECT_EQ(xml.output, "");
}

TEST_F(HtmlWriterTest, InterruptedRunShowsABannerAndTheCasesNotRun) {
  Write(InterruptedRun());
  EXPECT_EQ(HtmlParserComplaints(), "");
  EXPECT_EQ(XPath("string(//p[@id=\"run-status\"])"),
            "Run interrupted: interrupted by SIGTERM: 10 of 12 selected case(s) x EP finished, 2 "
            "not run");
  EXPECT_EQ(XPath("string(//h2[@id=\"not-run\"])"), "Not run (2)");
  EXPECT_EQ(XPath("count(//h2[@id=\"not-run\"]/following-sibling::ul[1]/li)"), "2");
  EXPECT_EQ(XPath("string(//h2[@id=\"not-run\"]/following-sibling::ul[1]/li[1]/code)"),
            "onnx-node/test_relu<&\"'>");
  Write(SampleRun());
  EXPECT_EQ(XPath("count(//p[@id=\"run-status\"])"), "0");
}

TEST_F(HtmlWriterTest, IsSelfContained) {
  const std::string page = RenderHtml(SampleRun());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n", 0), 0u);
  for (const char* external :
       {"<script", "<link", "src=", "http:", "https:", "@import", "url(", "<iframe", "<object"}) {
    EXPECT_THAT(page, Not(HasSubstr(external)));
  }
  // Every link stays inside the page.
  const std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), href); it != std::sregex_iterator();
       ++it) {
    EXPECT_EQ((*it)[1].str().rfind('#', 0), 0u) << (*it)[1].str();
  }
}

TEST_F(HtmlWriterTest, HeaderShowsTheRunAndItsTotals) {
  Write(SampleRun());
  EXPECT_EQ(XPath("string(/html/head/title)"), "onnxgate run");
  EXPECT_EQ(XPath("string(//table[@class=\"facts\"]//tr[th=\"Runtime\"]/td)"),
            "onnxgate-builtin 0.1.0");
  EXPECT_EQ(XPath("string(//table[@class=\"facts\"]//tr[th=\"Suites\"]/td)"), "onnx-node, models");
  EXPECT_EQ(XPath("string(//table[@class=\"facts\"]//tr[th=\"EPs\"]/td)"), "ref, dnnl");
  EXPECT_EQ(XPath("string(//table[@class=\"facts\"]//tr[th=\"Host\"]/td)"),
            "ci-runner-7 Linux 6.1, Intel Xeon, 16 cores");
  EXPECT_EQ(XPath("string(//table[@class=\"facts\"]//tr[th=\"Shard\"]/td)"), "2 of 4");
  EXPECT_EQ(XPath("string(//p[@id=\"totals\"])"),
            "10 casesPASS 2FAIL 1UNSUPPORTED 1UNRESOLVED 1CRASH 1TIMEOUT 1SKIP 1XFAIL 1XPASS 1");
}

TEST_F(HtmlWriterTest, GridHasACellPerMatrixEntry) {
  const RunRecord run = SampleRun();
  Write(run);
  const std::string grid = "//table[@id=\"matrix-grid\"]";
  EXPECT_EQ(XPath("count(" + grid + "//td[@data-n])"), std::to_string(run.matrix.size()));
  // Rows: the 10 ops of the matrix and the 2 operators known only from the coverage.
  EXPECT_EQ(XPath("count(" + grid + "/tbody/tr)"), "12");
  // Columns: versions 1,2,6,7,9,11,13,14 times EPs ref, dnnl, in the order the run asked.
  EXPECT_EQ(XPath("count(" + grid + "/thead/tr[1]/th)"), "10");
  EXPECT_EQ(XPath("string(" + grid + "/thead/tr[1]/th[8])"), "v11");
  EXPECT_EQ(XPath("string(" + grid + "/thead/tr[2]/th[1])"), "ref");
  EXPECT_EQ(XPath("string(" + grid + "/thead/tr[2]/th[2])"), "dnnl");
  EXPECT_EQ(XPath("count(" + grid + "/tbody/tr[1]/td)"), "17");

  // Conv v11 on dnnl: td 1 is the case count, then two cells per version.
  const std::string conv = grid + "/tbody/tr[th=\"Conv\"]";
  EXPECT_EQ(XPath("string(" + conv + "/td[13]/@class)"), "k failing");
  EXPECT_EQ(XPath("string(" + conv + "/td[13])"), "0/1");
  EXPECT_EQ(XPath("string(" + conv + "/td[13]/@title)"),
            "Conv v11 on dnnl: 1 fail\nfailing:\n  test_conv_with_strides");
  EXPECT_EQ(XPath("string(" + conv + "/td[13]/a/@href)"), "#case-1");
  EXPECT_EQ(XPath("string(" + conv + "/@class)"), "r-failing");
  // Conv v1 exists in ONNX but has no case; Conv has no v13.
  EXPECT_EQ(XPath("string(" + conv + "/td[2]/@class)"), "k empty g");
  EXPECT_EQ(XPath("string(" + conv + "/td[2]/@title)"), "Conv v1 on ref: no case");
  EXPECT_EQ(XPath("string(" + conv + "/td[14]/@class)"), "g");
  EXPECT_EQ(XPath("count(" + conv + "/td[14]/@title)"), "0");

  const std::string relu = grid + "/tbody/tr[th=\"Relu\"]";
  EXPECT_EQ(XPath("string(" + relu + "/@class)"), "r-passing");
  EXPECT_EQ(XPath("string(" + relu + "/td[1])"), "2");
  EXPECT_EQ(XPath("string(" + relu + "/td[14])"), "1/1");
  EXPECT_EQ(XPath("string(" + relu + "/td[14]/@class)"), "k passing g");
  EXPECT_EQ(XPath("string(" + grid + "/tbody/tr[th=\"Softmax\"]/td[@data-n]/@class)"),
            "k expected");
  EXPECT_EQ(XPath("string(" + grid + "/tbody/tr[th=\"Loop\"]/td[@data-n]/@class)"),
            "k unsupported");
  EXPECT_EQ(XPath("string(" + grid + "/tbody/tr[th=\"Abs\"]/@class)"), "r-empty");
  EXPECT_EQ(XPath("count(" + grid + "/tbody/tr[th=\"Abs\"]/td[@data-n])"), "0");
}

TEST_F(HtmlWriterTest, OneEpGridHasOneHeaderRow) {
  RunRecord run = SampleRun();
  run.selection.eps = {"ref"};
  for (MatrixCell& cell : run.matrix) cell.ep = "ref";
  Write(run);
  const std::string grid = "//table[@id=\"matrix-grid\"]";
  EXPECT_EQ(XPath("count(" + grid + "/thead/tr)"), "1");
  EXPECT_EQ(XPath("count(" + grid + "//td[@data-n])"), std::to_string(run.matrix.size()));
  EXPECT_EQ(XPath("count(" + grid + "/tbody/tr[1]/td)"), "9");
}

TEST_F(HtmlWriterTest, SideBySideRunHasAColumnPerRuntimeAndListsTheDifferences) {
  Write(SideBySideRun());
  EXPECT_EQ(HtmlParserComplaints(), "");
  const std::string totals = "//table[@id=\"side-by-side-totals\"]/tbody";
  EXPECT_EQ(XPath("count(" + totals + "/tr)"), "2");
  EXPECT_EQ(XPath("string(" + totals + "/tr[2]/td[1])"), "onnxruntime/CPUExecutionProvider");
  const std::string diff = "//table[@id=\"side-by-side-differences\"]";
  EXPECT_EQ(XPath("count(" + diff + "/tbody/tr)"), "1");
  EXPECT_EQ(XPath("string(" + diff + "/tbody/tr[1]/th)"), "Conv v11");
  EXPECT_EQ(XPath("string(" + diff + "/tbody/tr[1]/td[1]/@class)"), "k failing");
  EXPECT_EQ(XPath("string(" + diff + "/tbody/tr[1]/td[2]/@class)"), "k passing");
  const std::string grid = "//table[@id=\"matrix-grid\"]";
  EXPECT_EQ(XPath("count(" + grid + "/thead/tr)"), "2");
  EXPECT_EQ(XPath("string(" + grid + "/thead/tr[2]/th[2])"), "onnxruntime/CPUExecutionProvider");
  EXPECT_EQ(XPath("count(" + grid + "//td[@data-n])"), "4");
}

TEST_F(HtmlWriterTest, OneTargetRunHasNoSideBySideSection) {
  RunRecord run = SampleRun();
  for (CaseRecord& c : run.cases) c.ep = "ref";
  for (MatrixCell& cell : run.matrix) cell.ep = "ref";
  Write(run);
  EXPECT_EQ(XPath("count(//*[@id=\"side-by-side\"])"), "0");
}

TEST_F(HtmlWriterTest, FailingCasesShowComparisonsAndReproducers) {
  Write(SampleRun());
  const std::string table = "//table[@id=\"failing-table\"]/tbody";
  EXPECT_EQ(XPath("count(" + table + "/tr)"), "5");
  EXPECT_EQ(XPath("string(" + table + "/tr[1]/@id)"), "case-1");
  EXPECT_EQ(XPath("string(" + table + "/tr[1]/td[1]/b)"), "test_conv_with_strides");
  EXPECT_EQ(XPath("string(" + table + "/tr[5]/td[1]/b)"), "test_erf");  // XPASS last
  // Two failing outputs (y and w); z passed.
  const std::string cmp = table + "/tr[1]//table[@class=\"cmp\"]";
  EXPECT_EQ(XPath("count(" + cmp + "/tr)"), "3");
  EXPECT_EQ(XPath("string(" + cmp + "/tr[2])"),
            "y set 0float[2,3]0.50.252/6 (33.3%)at 4 [1,1]: expected 2, got 2.5"
            "rtol ≥ 0.25 or atol ≥ 0.5rtol 0.001, atol 1e-07");
  EXPECT_EQ(XPath("string(" + cmp + "/tr[3]/td[3])"), "inf");
  EXPECT_EQ(XPath("string(" + cmp + "/tr[3]/td[7])"), "no tolerance");
  EXPECT_EQ(XPath("string(" + table + "/tr[1]//pre)"),
            "onnxgate run --suite onnx-node --case test_conv_with_strides --ep dnnl");
  EXPECT_EQ(XPath("string(" + table + "/tr[5]/td[4]/div[@class=\"sub\"])"),
            "expectation: erf approximation too coarse");
  EXPECT_EQ(XPath("count(//table[@id=\"other-table\"]/tbody/tr)"), "3");
}

TEST_F(HtmlWriterTest, HostileTextIsEscaped) {
  RunRecord run = SampleRun();
  const std::string name = "<script>alert(\"x\")</script>&amp;'";
  run.cases[1].name = name;
  run.cases[1].message = "</td></tr></table><img src=x onerror=alert(1)> \x1b[31m\x01 \xff";
  run.cases[1].outputs[0].worst_actual = "<b>2.5</b>";
  run.matrix[2].failing_cases = {name};
  run.matrix[2].op = "Evil\"<Op>";
  run.selection.eps = {"ref", "d<nnl>"};
  Write(run);
  EXPECT_EQ(HtmlParserComplaints(), "");
  EXPECT_EQ(RunCommand("xmllint --noout '" + path_ + "'").output, "");
  StatusOr<std::string> page = ReadFile(path_);
  ASSERT_TRUE(page.ok());
  EXPECT_THAT(*page, Not(HasSubstr("<script")));
  EXPECT_THAT(*page, Not(HasSubstr("<img")));
  EXPECT_THAT(*page, Not(HasSubstr("<b>2.5")));
  EXPECT_THAT(*page, Not(HasSubstr("\x1b")));
  EXPECT_THAT(*page, Not(HasSubstr("\xff")));
  // The text survives as text.
  EXPECT_EQ(XPath("string(//tr[@id=\"case-1\"]/td[1]/b)"), name);
  EXPECT_EQ(XPath("string(//tr[@id=\"case-1\"]//div[@class=\"msg\"])"),
            "</td></tr></table><img src=x onerror=alert(1)> [31m \xEF\xBF\xBD");
  EXPECT_EQ(XPath("string(//table[@id=\"matrix-grid\"]/tbody/tr[starts-with(th, \"Evil\")]/"
                  "td[@data-n]/@title)"),
            "Evil\"<Op> v11 on dnnl: 1 fail\nfailing:\n  " + name);
}

TEST_F(HtmlWriterTest, TablesAreBoundedAndLinksOnlyPointAtShownCases) {
  HtmlOptions options;
  options.max_failing_cases = 1;
  options.max_other_cases = 2;
  Write(SampleRun(), options);
  EXPECT_EQ(XPath("count(//table[@id=\"failing-table\"]/tbody/tr)"), "1");
  EXPECT_EQ(XPath("count(//table[@id=\"other-table\"]/tbody/tr)"), "2");
  EXPECT_EQ(XPath("count(//table[@id=\"matrix-grid\"]//a)"), "1");
  StatusOr<std::string> page = ReadFile(path_);
  ASSERT_TRUE(page.ok());
  EXPECT_THAT(*page, HasSubstr("<p>... and 4 more (see the JSON report).</p>"));
  EXPECT_THAT(*page, HasSubstr("<p>... and 1 more (see the JSON report).</p>"));
}

TEST_F(HtmlWriterTest, CoverageSection) {
  Write(SampleRun());
  EXPECT_EQ(XPath("string(//h2[@id=\"coverage\"]/following-sibling::p[1])"),
            "ONNX operators with at least one case: 5 of 7; op versions covered: 7 of 22");
  EXPECT_EQ(XPath("string(//p[@class=\"names\"])"), "Abs ai.onnx.ml.LabelEncoder");
  EXPECT_EQ(XPath("count(//table[@id=\"partial-coverage\"]/tbody/tr)"), "5");
  EXPECT_EQ(XPath("string(//table[@id=\"partial-coverage\"]/tbody/tr[1])"),
            "Addv13, v14v1, v6, v7");
}

TEST_F(HtmlWriterTest, LatencyTableAndChart) {
  Write(SampleRun());
  EXPECT_EQ(
      XPath("count(//table[@id=\"latency-table\"]/tbody/tr[not(contains(@class,\"msgrow\"))])"),
      "4");
  EXPECT_EQ(XPath("string(//table[@id=\"latency-table\"]/tbody/tr[1]/@class)"), "l-regression");
  // The message sits on a row of its own under its record, across every column.
  EXPECT_EQ(XPath("string(//table[@id=\"latency-table\"]/tbody/tr[2]/@class)"),
            "l-regression msgrow");
  EXPECT_EQ(XPath("string(//table[@id=\"latency-table\"]/tbody/tr[2]/td/@colspan)"), "11");
  EXPECT_EQ(XPath("string(//table[@id=\"latency-table\"]/tbody/tr[1]/td[9])"), "+21.8% (±10.0%)");
  // Two legend swatches, four medians, three baselines (the encoder has none).
  EXPECT_EQ(XPath("count(//svg//rect)"), "9");
  EXPECT_EQ(XPath("count(//svg/g)"), "4");
  // The largest value (the regression's 12.3 ms median) spans the whole bar width.
  EXPECT_EQ(XPath("string(//svg/g[1]/rect[1]/@width)"), "480");
  EXPECT_EQ(XPath("string(//svg/g[1]/rect[2]/@width)"), "394");  // 10.1 / 12.3 * 480
  EXPECT_EQ(XPath("string(//svg/g[1]/text[2])"), "12.3 ms vs 10.1 ms (+21.8%) regression");
}

TEST_F(HtmlWriterTest, AnUnreliableVerdictIsSaidBesideItAndWhy) {
  RunRecord run = SampleRun();
  run.latency[1].noise = "cv 30.0% now and 2.0% in the baseline against a threshold of 10.0%";
  Write(run);
  const std::string mlp = "//table[@id=\"latency-table\"]/tbody/tr[td[1]=\"mlp\"]";
  EXPECT_EQ(XPath("string(" + mlp + "/td[11])"), "unchanged unreliable");
  EXPECT_EQ(XPath("string(" + mlp + "/following-sibling::tr[1]/@class)"), "l-unchanged msgrow");
  EXPECT_EQ(XPath("string(" + mlp + "/following-sibling::tr[1])"),
            "unreliable: " + run.latency[1].noise);
  EXPECT_THAT(XPath("string(//svg/g[2]/text[2])"), HasSubstr("unchanged (unreliable)"));
  EXPECT_EQ(XPath("count(//tr[contains(., \"unreliable\")])"), "2");
}

TEST_F(HtmlWriterTest, BenchRunIsTheLatencySectionAlone) {
  RunRecord run = SampleRun();
  run.cases.clear();
  run.matrix.clear();
  run.coverage.clear();
  Write(run);
  EXPECT_EQ(
      XPath("count(//table[@id=\"latency-table\"]/tbody/tr[not(contains(@class,\"msgrow\"))])"),
      "4");
  EXPECT_EQ(XPath("count(//h2[@id=\"matrix\"])"), "0");
  EXPECT_EQ(XPath("count(//h2[@id=\"coverage\"])"), "0");
}

TEST_F(HtmlWriterTest, BenchAgainstNamesBothSidesInTheEpsRow) {
  RunRecord run = SampleRun();
  run.cases.clear();
  run.matrix.clear();
  run.coverage.clear();
  run.selection.eps = {"dnnl", "ref"};
  for (LatencyRecord& r : run.latency) {
    r.runtime = "onnxgate";
    r.against = r.ep == "ref" ? "onnxruntime/CPUExecutionProvider" : "onnxruntime/DnnlProvider";
  }
  Write(run);
  EXPECT_EQ(XPath("string(//table[@class=\"facts\"]//tr[th=\"EPs\"]/td)"),
            "onnxgate/dnnl against onnxruntime/DnnlProvider, "
            "onnxgate/ref against onnxruntime/CPUExecutionProvider");
}

// The case tables have fixed columns, so long names and op lists wrap instead of pushing the
// verdict and message out of the window (ci/check-html-layout.sh measures it in Chromium).
TEST_F(HtmlWriterTest, CaseTablesHaveFixedColumnsAndWrappingOpLists) {
  RunRecord run = SampleRun();
  run.cases[1].op_versions = {{"Add", 14}, {"Softmax", 13}, {"Where", 16}};
  Write(run);
  for (const char* id : {"failing-table", "other-table"}) {
    const std::string table = std::string("//table[@id=\"") + id + "\"]";
    EXPECT_EQ(XPath("string(" + table + "/@class)"), "data cases");
    EXPECT_EQ(XPath("count(" + table + "/colgroup/col)"), "4");
  }
  EXPECT_EQ(XPath("string(//tr[@id=\"case-1\"]/td[1]/div[@class=\"sub ops\"])"),
            "Add:14, Softmax:13, Where:16");
  EXPECT_EQ(XPath("count(//tr[@id=\"case-1\"]//div[@class=\"hscroll\"]/table[@class=\"cmp\"])"),
            "1");
}

// Failing cases come before the side-by-side section and the matrix, which can be thousands of
// pixels tall; the section links follow the page's order.
TEST_F(HtmlWriterTest, FailingCasesComeBeforeTheMatrix) {
  Write(SampleRun());
  EXPECT_EQ(XPath("count(//h2[@id=\"failing\"]/following-sibling::h2[@id=\"matrix\"])"), "1");
  EXPECT_EQ(XPath("count(//h2[@id=\"failing\"]/following-sibling::h2[@id=\"side-by-side\"])"), "1");
  EXPECT_EQ(XPath("count(//h2[@id=\"matrix\"]/following-sibling::h2[@id=\"other\"])"), "1");
  EXPECT_EQ(XPath("string(//p[starts-with(., \"Sections:\")]/a[1]/@href)"), "#failing");
}

TEST_F(HtmlWriterTest, RunWithoutMatrixOrCasesIsStillAPage) {
  Write(RunRecord());
  EXPECT_EQ(RunCommand("xmllint --noout '" + path_ + "'").output, "");
  EXPECT_EQ(HtmlParserComplaints(), "");
  EXPECT_EQ(XPath("string(//h2[@id=\"matrix\"]/following-sibling::p[1])"),
            "No conformance matrix was computed for this run.");
  EXPECT_EQ(XPath("string(//p[@id=\"totals\"])"), "0 cases");
  EXPECT_EQ(XPath("count(//svg)"), "0");
}

// A run the size of the ONNX node suite: 922 cases on one EP over 200 ops.
TEST(HtmlWriterSizeTest, NodeSuiteSizedRunStaysSmall) {
  RunRecord run = SampleRun();
  run.cases.clear();
  run.matrix.clear();
  run.coverage.clear();
  run.selection.eps = {"ref"};
  for (int op = 0; op < 200; ++op) {
    const std::string name = "Operator" + std::to_string(op);
    run.coverage.push_back({name, {13}, {1, 6, 7, 9, 11, 14}});
    MatrixCell cell;
    cell.op = name;
    cell.since_version = 13;
    cell.ep = "ref";
    run.matrix.push_back(cell);
  }
  CaseRecord base = SampleRun().cases[1];
  base.ep = "ref";
  for (int i = 0; i < 922; ++i) {
    CaseRecord c = base;
    c.name = "test_case_number_" + std::to_string(i);
    c.verdict =
        i % 100 == 0 ? Verdict::kFail : (i % 10 == 0 ? Verdict::kUnsupported : Verdict::kPass);
    MatrixCell& cell = run.matrix[i % 200];
    c.op_versions = {{cell.op, 13}};
    ++cell.counts[c.verdict];
    if (c.verdict == Verdict::kFail) cell.failing_cases.push_back(c.name);
    run.cases.push_back(c);
  }
  const std::string page = RenderHtml(run);
  EXPECT_LT(page.size(), 600u * 1024) << page.size();
  EXPECT_THAT(page, HasSubstr("Failing cases (10)"));
}

TEST(HtmlWriterErrorTest, WriteIsAtomicAndErrorsNameThePath) {
  const std::string dir =
      ::testing::TempDir() + "/html_writer_atomic_" + std::to_string(::getpid());
  const std::string path = dir + "/nested/report.html";
  ASSERT_TRUE(WriteHtml(SampleRun(), path).ok());
  StatusOr<std::string> page = ReadFile(path);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(*page, RenderHtml(SampleRun()));
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/nested")) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);  // no temporary left behind
  std::filesystem::remove_all(dir);

  Status st = WriteHtml(SampleRun(), "/proc/onnxgate-no-such-dir/report.html");
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(st.message(),
              HasSubstr("writing HTML report /proc/onnxgate-no-such-dir/report.html"));
}

TEST_F(HtmlWriterTest, GateOpensWithItsOutcomeLinkingTheFailingRows) {
  const RunRecord failed = FailedGateRun();
  Write(failed);
  EXPECT_EQ(HtmlParserComplaints(), "");
  EXPECT_EQ(XPath("string(//h1)"), "onnxgate gate");
  EXPECT_EQ(XPath("string(//title)"), "onnxgate gate");
  const std::string banner = XPath("string(//p[@id=\"gate\"])");
  EXPECT_EQ(banner.rfind(
                "FAILED: " + std::to_string(failed.gate->unexpected.total()) + " unexpected (", 0),
            0u)
      << banner;
  // Every link of the banner points at a row of the failing table or at the other table.
  const int links = std::stoi(XPath("count(//p[@id=\"gate\"]/a)"));
  EXPECT_GT(links, 0);
  for (int i = 1; i <= links; ++i) {
    const std::string href =
        XPath("string(//p[@id=\"gate\"]/a[" + std::to_string(i) + "]/@href)").substr(1);
    if (href == "other") continue;
    EXPECT_EQ(XPath("count(//*[@id=\"" + href + "\"])"), "1") << href;
  }
  EXPECT_THAT(XPath("string(//p[@id=\"gate-expectations\"])"),
              HasSubstr("ref conformance/expectations/ref.json (3 entries); dnnl none found"));

  Write(PassedGateRun());
  EXPECT_EQ(XPath("string(//p[@id=\"gate\"])"), "PASSED");
  Write(SampleRun());
  EXPECT_EQ(XPath("string(//h1)"), "onnxgate run");
  EXPECT_EQ(XPath("count(//p[@id=\"gate\"])"), "0");
}

TEST(HtmlFallbackTest, FallbackNodesGetASectionOfTheirOwn) {
  RunRecord run = SampleRun();
  EXPECT_THAT(RenderHtml(run), Not(HasSubstr("id=\"fallback\"")));
  run.cases[0].fallbacks = {{"shape0", "Shape", "ref", true}, {"neg0", "Neg<b>", "ref", false}};
  EXPECT_THAT(RenderHtml(run),
              HasSubstr("<h2 id=\"fallback\">Fallback</h2>\n<ul>\n<li><code>" + run.cases[0].ep +
                        "</code>, 1 case(s): 2 nodes (ops: Neg&lt;b&gt; x1, Shape x1), of which 1 "
                        "shape-only</li>"));
}

}  // namespace
}  // namespace onnxgate

namespace onnxgate {
namespace {

class HtmlModelRunTest : public HtmlWriterTest {};

// A run of models opens on every model with its margins, then the failing nodes, then the
// failing cases; the matrix and the coverage come after, folded.
TEST_F(HtmlModelRunTest, OpensOnTheModelsAndTheirMarginsAndFoldsTheMatrix) {
  Write(ModelRun());
  EXPECT_EQ(HtmlParserComplaints(), "");
  const std::string rows = "//table[@id=\"models-table\"]/tbody/tr";
  EXPECT_EQ(XPath("count(" + rows + ")"), "3");
  EXPECT_EQ(XPath("string(" + rows + "[1]/td[4])"), "y set 0: uses 12.0% of atol, 40.0% of rtol");
  EXPECT_EQ(XPath("string(" + rows + "[2]/td[4]/div[@class=\"margin bad\"])"),
            "logits set 0: cosine 0.9991 (>= 0.999, margin 0.0001); top1 0.9 (>= 0.99, FAILS by "
            "0.09)");
  EXPECT_EQ(XPath("string(" + rows + "[2]/td[1]/a/@href)"), "#case-1");
  EXPECT_EQ(XPath("string(//h2[@id=\"failing-nodes\"]/following-sibling::ul[1]/li)"),
            "resnet18 [ref]: node relu_3 (Relu) computing y3, set 0: max abs err 0.5, max rel "
            "err 1");
  for (const char* next : {"failing-nodes", "failing", "matrix", "coverage"}) {
    EXPECT_EQ(XPath(std::string("count(//h2[@id=\"models\"]/following-sibling::h2[@id=\"") + next +
                    "\"])"),
              "1")
        << next;
  }
  EXPECT_EQ(XPath("count(//h2[@id=\"failing\"]/following-sibling::h2[@id=\"failing-nodes\"])"),
            "0");
  EXPECT_EQ(XPath("count(//details[@id=\"matrix-folded\"]//table[@id=\"matrix-grid\"])"), "1");
  // Rows for the three ops the models use, not for the operators only the coverage names.
  EXPECT_EQ(XPath("count(//table[@id=\"matrix-grid\"]/tbody/tr)"), "3");
  EXPECT_EQ(XPath("count(//details[@id=\"coverage-folded\"])"), "1");
  EXPECT_EQ(XPath("string(//p[starts-with(., \"Sections:\")]/a[1]/@href)"), "#models");
}

TEST_F(HtmlModelRunTest, FailingCaseDetailsShowTheDivergenceAndTheMetrics) {
  Write(ModelRun());
  const std::string row = "//tr[@id=\"case-1\"]/td[4]";
  EXPECT_EQ(XPath("string(" + row + "/div[@class=\"msg\"][2])"),
            "First diverges at node relu_3 (Relu) computing y3, set 0: max abs err 0.5, max rel "
            "err 1");
  EXPECT_EQ(XPath("count(" + row + "/div[@class=\"margin bad\"])"), "1");
  EXPECT_EQ(XPath("string(" + row + "/div[@class=\"margin\"])"),
            "logits set 0: cosine 0.9991 (>= 0.999, margin 0.0001)");
  // Judged by metrics: no rtol/atol table for that output.
  EXPECT_EQ(XPath("count(" + row + "//table[@class=\"cmp\"])"), "0");
}

TEST_F(HtmlModelRunTest, AnOperatorRunHasNoModelsSectionAndAnOpenMatrix) {
  Write(SampleRun());
  EXPECT_EQ(XPath("count(//h2[@id=\"models\"])"), "0");
  EXPECT_EQ(XPath("count(//details[@id=\"matrix-folded\"])"), "0");
  EXPECT_EQ(XPath("count(//details[@id=\"coverage-folded\"])"), "0");
  EXPECT_EQ(XPath("count(//h2[@id=\"failing-nodes\"])"), "0");
}

}  // namespace
}  // namespace onnxgate
