#include "harness/compat_matrix.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "runtime/base/status.h"

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A case of one op at one version: `verdict` after expectations, `outcome` raw.
CaseRecord Case(const std::string& name, const std::string& ep, Verdict outcome,
                const std::string& op = "Relu", int64_t version = 14,
                std::optional<Verdict> verdict = std::nullopt) {
  CaseRecord c;
  c.suite = "onnx-node";
  c.name = name;
  c.op_types = {op};
  c.op_versions = {{op, version}};
  c.ep = ep;
  c.outcome = outcome;
  c.verdict = verdict.value_or(outcome);
  if (outcome != Verdict::kPass) c.message = name + " on " + ep + ": " + VerdictToString(outcome);
  return c;
}

// A report of one runtime on `eps`, in that order.
CompatReport Report(const std::string& file, const std::string& runtime,
                    const std::vector<std::string>& eps, std::vector<CaseRecord> cases) {
  CompatReport report;
  report.file = file;
  report.run.runtime_name = runtime;
  report.run.runtime_version = "1.0";
  report.run.runtimes = {{runtime, runtime, "1.0", runtime}};
  report.run.selection.eps = eps;
  report.run.cases = std::move(cases);
  return report;
}

std::vector<std::string> ColumnNames(const CompatMatrix& m) {
  std::vector<std::string> names;
  for (const CompatColumn& c : m.columns) names.push_back(c.name);
  return names;
}

const CompatRow& RowOf(const CompatMatrix& m, const std::string& op, int64_t version) {
  for (const CompatRow& r : m.rows) {
    if (r.op == op && r.since_version == version) return r;
  }
  ADD_FAILURE() << "no row " << op << " v" << version;
  static const CompatRow none;
  return none;
}

// The built-in runtime on ref and dnnl, ONNX Runtime on its CPU EP.
std::vector<CompatReport> ThreeColumns() {
  return {
      Report("builtin.json", "onnxgate", {"ref", "dnnl"},
             {Case("test_relu", "ref", Verdict::kPass), Case("test_relu", "dnnl", Verdict::kFail),
              Case("test_gelu", "ref", Verdict::kPass, "Gelu", 20),
              Case("test_gelu", "dnnl", Verdict::kSkip, "Gelu", 20)}),
      Report("ort.json", "onnxruntime", {"CPUExecutionProvider"},
             {Case("test_relu", "CPUExecutionProvider", Verdict::kPass),
              Case("test_gelu", "CPUExecutionProvider", Verdict::kUnsupported, "Gelu", 20)})};
}

TEST(CompatMatrixTest, ColumnsAreRuntimeSlashEpInReportOrder) {
  StatusOr<CompatMatrix> m = BuildCompatMatrix(ThreeColumns());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_THAT(ColumnNames(*m),
              ElementsAre("onnxgate/ref", "onnxgate/dnnl", "onnxruntime/CPUExecutionProvider"));
  EXPECT_EQ(m->columns[2].report, "ort.json");
  EXPECT_EQ(m->columns[2].runtime_version, "1.0");
  // dnnl: a FAIL and a SKIP, so 0 of 1 ran passed.
  EXPECT_EQ(m->columns[1].pass.passed, 0);
  EXPECT_EQ(m->columns[1].pass.run, 1);
  EXPECT_EQ(m->columns[1].counts[Verdict::kSkip], 1);
  EXPECT_EQ(m->columns[0].pass.Share(), 1.0);
  EXPECT_EQ(m->cases, 2);
}

TEST(CompatMatrixTest, CellsCountPassedOfRunPerOpVersion) {
  StatusOr<CompatMatrix> m = BuildCompatMatrix(ThreeColumns());
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->rows.size(), 2u);
  EXPECT_EQ(m->rows[0].op, "Gelu");  // sorted by op
  const CompatRow& relu = RowOf(*m, "Relu", 14);
  ASSERT_EQ(relu.cells.size(), 3u);
  EXPECT_EQ(relu.cells[0]->pass.passed, 1);
  EXPECT_EQ(relu.cells[1]->pass.passed, 0);
  EXPECT_EQ(relu.cells[1]->pass.run, 1);
  EXPECT_THAT(relu.cells[1]->failing_cases, ElementsAre("test_relu"));
  EXPECT_TRUE(relu.differs);
  // Gelu on dnnl was skipped only: a cell with nothing run, not compared.
  const CompatRow& gelu = RowOf(*m, "Gelu", 20);
  EXPECT_EQ(gelu.cells[1]->pass.run, 0);
  EXPECT_FALSE(gelu.cells[1]->pass.Share().has_value());
  EXPECT_TRUE(gelu.differs);  // 1/1 on ref, 0/1 on ORT
}

TEST(CompatMatrixTest, DifferingCasesPassSomewhereAndRanWithoutPassingElsewhere) {
  std::vector<CompatReport> reports = ThreeColumns();
  // Passes on ref, skipped on dnnl, not run on ORT: nothing to compare it with.
  reports[0].run.cases.push_back(Case("test_mish", "ref", Verdict::kPass, "Mish", 18));
  reports[0].run.cases.push_back(Case("test_mish", "dnnl", Verdict::kSkip, "Mish", 18));
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->differing_cases.size(), 2u);
  const CompatCase& gelu = m->differing_cases[0];  // sorted by name
  EXPECT_EQ(gelu.name, "test_gelu");
  EXPECT_EQ(gelu.outcomes[1]->outcome, Verdict::kSkip);
  EXPECT_EQ(gelu.outcomes[2]->outcome, Verdict::kUnsupported);
  EXPECT_THAT(gelu.outcomes[2]->message, HasSubstr("UNSUPPORTED"));
  EXPECT_TRUE(gelu.outcomes[0]->message.empty());  // a pass keeps no message
  const CompatCase& relu = m->differing_cases[1];
  EXPECT_EQ(relu.op_versions.at("Relu"), 14);
  EXPECT_EQ(relu.outcomes[1]->outcome, Verdict::kFail);
  EXPECT_FALSE(RowOf(*m, "Mish", 18).differs);
  EXPECT_EQ(m->cases, 3);
}

TEST(CompatMatrixTest, CaseInOneColumnOnlyDoesNotDiffer) {
  std::vector<CompatReport> reports = ThreeColumns();
  reports[1].run.cases.push_back(Case("test_only_ort", "CPUExecutionProvider", Verdict::kFail));
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok());
  for (const CompatCase& c : m->differing_cases) EXPECT_NE(c.name, "test_only_ort");
}

TEST(CompatMatrixTest, XpassCountsAsPassedAndXfailDoesNot) {
  std::vector<CompatReport> reports = {
      Report("a.json", "onnxgate", {"ref"},
             {Case("test_a", "ref", Verdict::kPass, "Relu", 14, Verdict::kXpass),
              Case("test_b", "ref", Verdict::kFail, "Relu", 14, Verdict::kXfail)})};
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok());
  const CompatCell& cell = *m->rows[0].cells[0];
  EXPECT_EQ(cell.pass.passed, 1);
  EXPECT_EQ(cell.pass.run, 2);
  EXPECT_EQ(cell.counts[Verdict::kXfail], 1);
  EXPECT_EQ(m->columns[0].pass.passed, 1);
}

TEST(CompatMatrixTest, SideBySideReportNamesColumnsByRuntimeLabel) {
  CompatReport report = Report("side.json", "onnxgate", {"ref", "CPUExecutionProvider"}, {});
  report.run.runtimes = {{"onnxgate", "onnxgate", "0.1.0", "builtin"},
                         {"onnxruntime", "onnxruntime", "1.31.1", "ort"}};
  CaseRecord ref = Case("test_relu", "ref", Verdict::kPass);
  ref.runtime = "onnxgate";
  CaseRecord ort = Case("test_relu", "CPUExecutionProvider", Verdict::kPass);
  ort.runtime = "onnxruntime";
  report.run.cases = {ort, ref};
  StatusOr<CompatMatrix> m = BuildCompatMatrix({report});
  ASSERT_TRUE(m.ok());
  EXPECT_THAT(ColumnNames(*m), ElementsAre("onnxgate/ref", "onnxruntime/CPUExecutionProvider"));
  EXPECT_EQ(m->columns[1].runtime_version, "1.31.1");
  EXPECT_TRUE(m->differing_cases.empty());
}

TEST(CompatMatrixTest, UsesTheReportsMatrixWhenItHasOne) {
  // A FAIL the run attributed to Relu alone (first_divergence): its report's matrix counts it
  // under Relu only, and the compatibility matrix keeps that.
  CaseRecord c = Case("test_model", "ref", Verdict::kFail);
  c.op_versions = {{"Conv", 11}, {"Relu", 14}};
  CompatReport report = Report("r.json", "onnxgate", {"ref"}, {c});
  MatrixCell relu;
  relu.op = "Relu";
  relu.since_version = 14;
  relu.ep = "ref";
  relu.counts[Verdict::kFail] = 1;
  relu.failing_cases = {"test_model"};
  report.run.matrix = {relu};
  StatusOr<CompatMatrix> m = BuildCompatMatrix({report});
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->rows.size(), 1u);
  EXPECT_EQ(m->rows[0].op, "Relu");
  // Without one, it is built from the cases: both ops.
  report.run.matrix.clear();
  m = BuildCompatMatrix({report});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->rows.size(), 2u);
}

TEST(CompatMatrixTest, SameColumnInTwoReportsIsRefusedNamingBoth) {
  std::vector<CompatReport> reports = ThreeColumns();
  reports.push_back(
      Report("again.json", "onnxgate", {"dnnl"}, {Case("test_relu", "dnnl", Verdict::kPass)}));
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(m.status().message(), HasSubstr("again.json"));
  EXPECT_THAT(m.status().message(), HasSubstr("onnxgate/dnnl is also in builtin.json"));
}

TEST(CompatMatrixTest, OneRuntimeAtTwoVersionsGetsAColumnPerVersion) {
  std::vector<CompatReport> reports = ThreeColumns();
  CompatReport candidate = Report("candidate.json", "onnxruntime", {"CPUExecutionProvider"},
                                  {Case("test_relu", "CPUExecutionProvider", Verdict::kFail)});
  candidate.run.runtime_version = "2.0";
  reports.push_back(candidate);
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_THAT(ColumnNames(*m),
              ElementsAre("onnxgate/ref", "onnxgate/dnnl", "onnxruntime@1.0/CPUExecutionProvider",
                          "onnxruntime@2.0/CPUExecutionProvider"));
  EXPECT_EQ(RowOf(*m, "Relu", 14).cells[3]->pass.passed, 0);
}

TEST(CompatMatrixTest, SameReportTwiceIsRefused) {
  std::vector<CompatReport> reports = ThreeColumns();
  reports.push_back(reports[1]);
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "ort.json: given twice");
}

TEST(CompatMatrixTest, ReportWithoutCasesIsRefused) {
  CompatReport bench = Report("bench.json", "onnxgate", {"ref"}, {});
  bench.run.latency.push_back(LatencyRecord{});
  StatusOr<CompatMatrix> m = BuildCompatMatrix({ThreeColumns()[0], bench});
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("bench.json: holds no case results"));
  EXPECT_FALSE(BuildCompatMatrix({}).ok());
}

TEST(CompatMatrixTest, InterruptedRunIsKeptAndMarked) {
  std::vector<CompatReport> reports = ThreeColumns();
  reports[1].run.status = RunStatus::kInterrupted;
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->columns[0].interrupted);
  EXPECT_TRUE(m->columns[2].interrupted);
  EXPECT_THAT(CompatMatrixSummary(*m), HasSubstr("interrupted run"));
}

TEST(CompatMatrixTest, SummaryNamesEachColumnWithItsShare) {
  StatusOr<CompatMatrix> m = BuildCompatMatrix(ThreeColumns());
  ASSERT_TRUE(m.ok());
  const std::string summary = CompatMatrixSummary(*m);
  EXPECT_THAT(summary, HasSubstr("3 column(s), 2 op version(s), 2 with pass shares that differ"));
  EXPECT_THAT(summary, HasSubstr("2 case(s), 2 passing in one column and not in another"));
  EXPECT_THAT(summary, ::testing::ContainsRegex("\n  onnxgate/dnnl +0/1 passed \\(0"));
}

TEST(CompatMatrixTest, JsonHasColumnsRowsAndDifferingCases) {
  StatusOr<CompatMatrix> m = BuildCompatMatrix(ThreeColumns());
  ASSERT_TRUE(m.ok());
  const nlohmann::json j = nlohmann::json::parse(RenderCompatMatrixJson(*m));
  EXPECT_EQ(j["schema"], "onnxgate-compat-matrix");
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_EQ(j["columns"].size(), 3u);
  EXPECT_EQ(j["columns"][1]["name"], "onnxgate/dnnl");
  EXPECT_EQ(j["columns"][1]["counts"]["SKIP"], 1);
  EXPECT_EQ(j["columns"][1]["status"], "completed");
  EXPECT_EQ(j["op_versions"], 2);
  EXPECT_EQ(j["op_versions_differing"], 2);
  EXPECT_EQ(j["cases_differing"], 2);
  const nlohmann::json& relu = j["rows"][1];
  EXPECT_EQ(relu["op"], "Relu");
  EXPECT_EQ(relu["cells"][1]["run"], 1);
  EXPECT_EQ(relu["cells"][1]["failing_cases"][0], "test_relu");
  const nlohmann::json& gelu = j["differing_cases"][0];
  EXPECT_EQ(gelu["case"], "test_gelu");
  EXPECT_EQ(gelu["op_versions"]["Gelu"], 20);
  EXPECT_EQ(gelu["outcomes"][2]["outcome"], "UNSUPPORTED");
  EXPECT_FALSE(gelu["outcomes"][0].contains("message"));
}

TEST(CompatMatrixTest, JsonWritesNullForAColumnWithoutTheCase) {
  std::vector<CompatReport> reports = ThreeColumns();
  reports[1].run.cases.push_back(
      Case("test_new", "CPUExecutionProvider", Verdict::kPass, "Neg", 13));
  reports[0].run.cases.push_back(Case("test_new", "ref", Verdict::kFail, "Neg", 13));
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok());
  const nlohmann::json j = nlohmann::json::parse(RenderCompatMatrixJson(*m));
  const nlohmann::json& neg = j["rows"][1];
  ASSERT_EQ(neg["op"], "Neg");
  EXPECT_TRUE(neg["cells"][1].is_null());
  EXPECT_TRUE(j["differing_cases"][1]["outcomes"][1].is_null());
}

TEST(CompatMatrixTest, HtmlHasAHeaderPerColumnAndEscapesEveryText) {
  std::vector<CompatReport> reports = ThreeColumns();
  reports[1].run.cases.push_back(
      Case("test_<b>bold</b>", "CPUExecutionProvider", Verdict::kFail, "Relu", 14));
  reports[0].run.cases.push_back(Case("test_<b>bold</b>", "ref", Verdict::kPass, "Relu", 14));
  StatusOr<CompatMatrix> m = BuildCompatMatrix(reports);
  ASSERT_TRUE(m.ok());
  const std::string html = RenderCompatMatrixHtml(*m);
  EXPECT_THAT(html, HasSubstr("id=\"compat-grid\""));
  EXPECT_THAT(html, HasSubstr("id=\"differs-table\""));
  size_t headers = 0;
  for (size_t at = html.find("<th class=\"col\""); at != std::string::npos;
       at = html.find("<th class=\"col\"", at + 1)) {
    ++headers;
  }
  EXPECT_EQ(headers, 3u);
  EXPECT_THAT(html, HasSubstr("onnxruntime/<br/><span class=\"ep\">CPUExecutionProvider</span>"));
  EXPECT_THAT(html, HasSubstr("test_&lt;b&gt;bold&lt;/b&gt;"));
  EXPECT_EQ(html.find("<b>bold</b>"), std::string::npos);
  EXPECT_THAT(html, HasSubstr("<td class=\"s-none\""));  // Relu on dnnl: 0/1
  EXPECT_THAT(html, HasSubstr("<td class=\"s-skip\""));  // Gelu on dnnl: skipped only
}

TEST(CompatMatrixTest, HtmlCutsTheDifferingListAtItsLimit) {
  StatusOr<CompatMatrix> m = BuildCompatMatrix(ThreeColumns());
  ASSERT_TRUE(m.ok());
  const std::string html = RenderCompatMatrixHtml(*m, 1);
  EXPECT_THAT(html, HasSubstr("... and 1 more (see the JSON output)"));
  EXPECT_EQ(html.find("onnx-node/test_relu"), std::string::npos);
}

}  // namespace
}  // namespace onnxgate
