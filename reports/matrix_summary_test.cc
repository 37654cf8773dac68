// Tests of the matrix and coverage summaries shared by the Markdown and HTML writers.
#include "reports/matrix_summary.h"

#include <gtest/gtest.h>

#include "reports/report_test_util.h"

namespace onnxgate {
namespace {

VerdictCounts Counts(std::initializer_list<std::pair<Verdict, int64_t>> counts) {
  VerdictCounts out;
  for (const auto& [v, n] : counts) out[v] = n;
  return out;
}

TEST(MatrixSummaryTest, ClassifiesCellsByTheirWorstVerdict) {
  EXPECT_EQ(ClassifyCounts({}), CellClass::kEmpty);
  EXPECT_EQ(ClassifyCounts(Counts({{Verdict::kPass, 3}})), CellClass::kPassing);
  EXPECT_EQ(ClassifyCounts(Counts({{Verdict::kPass, 3}, {Verdict::kUnsupported, 1}})),
            CellClass::kPartial);
  EXPECT_EQ(ClassifyCounts(Counts({{Verdict::kPass, 3}, {Verdict::kXfail, 1}})),
            CellClass::kPartial);
  EXPECT_EQ(ClassifyCounts(Counts({{Verdict::kXfail, 1}, {Verdict::kUnsupported, 4}})),
            CellClass::kExpected);
  EXPECT_EQ(ClassifyCounts(Counts({{Verdict::kSkip, 1}, {Verdict::kUnsupported, 4}})),
            CellClass::kUnsupported);
  for (Verdict bad : {Verdict::kFail, Verdict::kCrash, Verdict::kTimeout, Verdict::kUnresolved,
                      Verdict::kXpass}) {
    EXPECT_TRUE(IsFailingVerdict(bad));
    EXPECT_EQ(ClassifyCounts(Counts({{Verdict::kPass, 10}, {bad, 1}})), CellClass::kFailing)
        << VerdictToString(bad);
  }
  for (Verdict ok : {Verdict::kPass, Verdict::kUnsupported, Verdict::kSkip, Verdict::kXfail}) {
    EXPECT_FALSE(IsFailingVerdict(ok));
  }
  EXPECT_STREQ(CellClassName(CellClass::kFailing), "failing");
  EXPECT_STREQ(CellClassName(CellClass::kEmpty), "empty");
}

TEST(MatrixSummaryTest, CountsInWords) {
  EXPECT_EQ(FormatVerdictCounts({}), "no case");
  EXPECT_EQ(
      FormatVerdictCounts(Counts({{Verdict::kXfail, 2}, {Verdict::kPass, 4}, {Verdict::kFail, 1}})),
      "4 pass, 1 fail, 2 xfail");
  MatrixCell cell;
  cell.op = "Conv";
  cell.since_version = 13;
  cell.ep = "ref";
  cell.counts = Counts({{Verdict::kPass, 4}, {Verdict::kUnsupported, 1}});
  EXPECT_EQ(FormatMatrixCell(cell), "v13 ref: 4 pass, 1 unsupported");
  EXPECT_EQ(FormatVersions({1, 6, 13}), "v1, v6, v13");
  EXPECT_EQ(FormatVersions({}), "");
}

TEST(MatrixSummaryTest, RowsGroupCellsPerOpInOrder) {
  RunRecord run = SampleRun();
  std::vector<MatrixCell> matrix(run.matrix.rbegin(), run.matrix.rend());  // any order
  const std::vector<MatrixRow> rows = MatrixRows(matrix);
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[0].op, "Add");
  ASSERT_EQ(rows[0].cells.size(), 2u);
  EXPECT_EQ(rows[0].cells[0]->since_version, 13);
  EXPECT_EQ(rows[0].cells[1]->since_version, 14);
  EXPECT_EQ(rows[0].counts.total(), 2);
  EXPECT_EQ(rows[0].cell_class, CellClass::kFailing);  // v13 UNRESOLVED
  EXPECT_EQ(rows[8].op, "Relu");
  EXPECT_EQ(rows[8].cell_class, CellClass::kPassing);
  EXPECT_EQ(rows[8].counts[Verdict::kPass], 2);
  EXPECT_EQ(rows[9].op, "Softmax");
  EXPECT_EQ(rows[9].cell_class, CellClass::kExpected);
  EXPECT_TRUE(MatrixRows({}).empty());
}

TEST(MatrixSummaryTest, CoverageTotals) {
  const CoverageTotals totals = SumCoverage(SampleRun().coverage);
  EXPECT_EQ(totals.ops_total, 7);
  EXPECT_EQ(totals.ops_covered, 5);
  EXPECT_EQ(totals.versions_covered, 7);
  EXPECT_EQ(totals.versions_total, 22);
  EXPECT_EQ(totals.uncovered_ops, (std::vector<std::string>{"Abs", "ai.onnx.ml.LabelEncoder"}));
  ASSERT_EQ(totals.partial_ops.size(), 5u);
  EXPECT_EQ(totals.partial_ops[0]->op, "Add");
  EXPECT_EQ(FormatCoverageLine(totals),
            "ONNX operators with at least one case: 5 of 7; op versions covered: 7 of 22");
  EXPECT_EQ(FormatCoverageLine(SumCoverage({})),
            "ONNX operators with at least one case: 0 of 0; op versions covered: 0 of 0");
}

}  // namespace
}  // namespace onnxgate
