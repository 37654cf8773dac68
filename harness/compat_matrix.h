// One compatibility matrix across runtimes (`onnxgate matrix`): the JSON run reports of several
// runs, each of one or more targets, as one grid of op x op version x column, where a column is
// one runtime/EP ("onnxgate/ref", "onnxruntime/CPUExecutionProvider"), and the cases whose raw
// outcome passes in one column and not in another.
//
// Contract:
//   - Columns are named "<runtime>/<EP>" whether a report ran one runtime or several side by
//     side: the runtime is its label in a side-by-side run, else the report's runtime name; one
//     runtime/EP at several versions (a release and a candidate) is "<runtime>@<version>/<EP>".
//     They come in the order of the reports, each report's in the order it shows them.
//   - A cell counts the cases of one op version on one column by verdict, as the run report's
//     conformance matrix does (reports/records.h, MatrixCell). Its pass share is passed / run:
//     passed counts PASS and XPASS (the raw outcome passed), run every case but SKIP (which never
//     ran). A column without a case of the op version has no cell.
//   - A case is matched across columns by suite and name, and compared by raw outcome: it differs
//     when one column passed it and another ran it (any outcome but SKIP) and did not pass.
//   - Bad input is an InvalidArgument naming the file: a report with no case (a bench report, a
//     run that selected nothing), or a column (runtime/EP at one version) that another report
//     already holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// One input: a run report and the file it was read from (as given, for errors and the page).
struct CompatReport {
  std::string file;
  RunRecord run;
};

// Passed of run, as a cell and a column count them.
struct PassCount {
  int64_t passed = 0;  // PASS and XPASS
  int64_t run = 0;     // every case but SKIP
  // passed / run, 0..1; nullopt when nothing ran.
  std::optional<double> Share() const;
};

struct CompatColumn {
  std::string name;  // "<runtime>/<ep>" or "<runtime>@<version>/<ep>", unique in the matrix
  std::string runtime;
  std::string runtime_version;
  std::string ep;
  std::string report;        // the file it came from
  bool interrupted = false;  // the run was stopped before every case finished
  VerdictCounts counts;      // its cases by verdict
  PassCount pass;            // its cases by raw outcome
};

struct CompatCell {
  VerdictCounts counts;
  PassCount pass;
  std::vector<std::string> failing_cases;  // FAIL, CRASH, TIMEOUT, UNRESOLVED, XPASS: names
};

struct CompatRow {
  std::string op;  // qualified, as MatrixCell names it
  int64_t since_version = 0;
  std::vector<std::optional<CompatCell>> cells;  // one per column; nullopt: no case there
  bool differs = false;  // two columns that ran cases of it have different pass shares
};

// A case's raw outcome on one column, and its message when it did not pass.
struct CompatOutcome {
  Verdict outcome = Verdict::kPass;
  std::string message;
};

struct CompatCase {
  std::string suite;
  std::string name;
  std::map<std::string, int64_t> op_versions;          // from the first column that ran it
  std::vector<std::optional<CompatOutcome>> outcomes;  // one per column; nullopt: not there
};

struct CompatMatrix {
  std::vector<CompatColumn> columns;
  std::vector<CompatRow> rows;              // sorted by op, then version
  std::vector<CompatCase> differing_cases;  // sorted by suite, then name
  int64_t cases = 0;                        // distinct suite/name pairs over every column
  size_t DifferingRows() const;
};

// The matrix of `reports`; InvalidArgument naming the file for the bad input above.
StatusOr<CompatMatrix> BuildCompatMatrix(const std::vector<CompatReport>& reports);

// For the console: a line per column (passed/run and share), then the op versions and cases
// that differ.
std::string CompatMatrixSummary(const CompatMatrix& matrix);

// The JSON object documented in docs/report-json-schema.md ("onnxgate-compat-matrix").
std::string RenderCompatMatrixJson(const CompatMatrix& matrix);

// One self-contained page (inline CSS, no script, no external resource), readable at 1280 px
// with many columns: the columns and their totals, the grid (a sticky header of columns, op rows
// grouped, cells coloured by pass share, a checkbox that keeps only the rows that differ) and the
// cases that differ, at most `max_differing_rows` of them. Every text is escaped; the page is
// well-formed XML.
std::string RenderCompatMatrixHtml(const CompatMatrix& matrix, size_t max_differing_rows = 2000);

}  // namespace onnxgate
