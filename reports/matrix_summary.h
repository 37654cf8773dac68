// How the report writers read the conformance matrix and the operator coverage: a cell's class,
// its counts in words, the cells grouped per op, and coverage totals. Kept in one place so the
// Markdown summary and the HTML page colour and count the same way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/records.h"

namespace onnxgate {

// The verdicts that need a look: FAIL, CRASH, TIMEOUT, UNRESOLVED, XPASS.
bool IsFailingVerdict(Verdict verdict);

enum class CellClass {
  kFailing,      // at least one failing verdict
  kPassing,      // every case passed
  kPartial,      // some passed; the others are UNSUPPORTED, XFAIL or SKIP
  kExpected,     // none passed, at least one XFAIL; the rest UNSUPPORTED or SKIP
  kUnsupported,  // only UNSUPPORTED or SKIP
  kEmpty,        // no case
};
CellClass ClassifyCounts(const VerdictCounts& counts);
// "failing", "passing", "partial", "expected", "unsupported", "empty"; also CSS class names.
const char* CellClassName(CellClass cell_class);

// The non-zero counts in verdict order, verdicts in lower case: "4 pass, 1 fail, 2 xfail";
// "no case" when every count is zero.
std::string FormatVerdictCounts(const VerdictCounts& counts);
// "v13 ref: 4 pass, 1 fail".
std::string FormatMatrixCell(const MatrixCell& cell);

// The cells of one op.
struct MatrixRow {
  std::string op;
  std::vector<const MatrixCell*> cells;      // by version, then target name
  VerdictCounts counts;                      // summed over the cells
  CellClass cell_class = CellClass::kEmpty;  // of the summed counts
};
// One row per op, sorted by op name; the rows point into `matrix`.
std::vector<MatrixRow> MatrixRows(const std::vector<MatrixCell>& matrix);

// Side by side: the verdict counts of each target (RunTargets order).
struct TargetCounts {
  std::string target;
  VerdictCounts counts;
};
std::vector<TargetCounts> CountsPerTarget(const RunRecord& run);

// An op version whose cells fall in different classes on different targets (one passes, the
// other fails or declines): what a side-by-side run is for.
struct TargetDifference {
  std::string op;
  int64_t since_version = 0;
  std::vector<const MatrixCell*> cells;  // one per target given, null where it has no case
};
// Sorted by op, then version; the cells point into run.matrix.
std::vector<TargetDifference> DifferingOpVersions(const RunRecord& run,
                                                  const std::vector<std::string>& targets);

struct CoverageTotals {
  int64_t ops_covered = 0;  // operators with at least one version exercised
  int64_t ops_total = 0;
  int64_t versions_covered = 0;
  int64_t versions_total = 0;
  std::vector<std::string> uncovered_ops;          // operators without any case, in record order
  std::vector<const CoverageRecord*> partial_ops;  // some versions covered, some not
};
CoverageTotals SumCoverage(const std::vector<CoverageRecord>& coverage);
// "ONNX operators with at least one case: X of Y; op versions covered: A of B".
std::string FormatCoverageLine(const CoverageTotals& totals);
// "v1, v6".
std::string FormatVersions(const std::vector<int64_t>& versions);

}  // namespace onnxgate
