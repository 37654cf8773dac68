// Classification, wording and grouping of matrix cells and coverage records.
#include "reports/matrix_summary.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace onnxgate {

bool IsFailingVerdict(Verdict v) {
  return v == Verdict::kFail || v == Verdict::kCrash || v == Verdict::kTimeout ||
         v == Verdict::kUnresolved || v == Verdict::kXpass;
}

CellClass ClassifyCounts(const VerdictCounts& counts) {
  if (counts.total() == 0) return CellClass::kEmpty;
  for (Verdict v : kAllVerdicts) {
    if (IsFailingVerdict(v) && counts[v] > 0) return CellClass::kFailing;
  }
  if (counts[Verdict::kPass] == counts.total()) return CellClass::kPassing;
  if (counts[Verdict::kPass] > 0) return CellClass::kPartial;
  if (counts[Verdict::kXfail] > 0) return CellClass::kExpected;
  return CellClass::kUnsupported;
}

const char* CellClassName(CellClass cell_class) {
  switch (cell_class) {
    case CellClass::kFailing: return "failing";
    case CellClass::kPassing: return "passing";
    case CellClass::kPartial: return "partial";
    case CellClass::kExpected: return "expected";
    case CellClass::kUnsupported: return "unsupported";
    case CellClass::kEmpty: return "empty";
  }
  return "empty";
}

std::string FormatVerdictCounts(const VerdictCounts& counts) {
  std::string out;
  for (Verdict v : kAllVerdicts) {
    if (counts[v] == 0) continue;
    std::string name = VerdictToString(v);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!out.empty()) out += ", ";
    out += std::to_string(counts[v]) + " " + name;
  }
  return out.empty() ? "no case" : out;
}

std::string FormatMatrixCell(const MatrixCell& cell) {
  return "v" + std::to_string(cell.since_version) + " " + TargetName(cell) + ": " +
         FormatVerdictCounts(cell.counts);
}

std::vector<MatrixRow> MatrixRows(const std::vector<MatrixCell>& matrix) {
  std::map<std::string, MatrixRow> rows;
  for (const MatrixCell& cell : matrix) {
    MatrixRow& row = rows[cell.op];
    row.op = cell.op;
    row.cells.push_back(&cell);
    for (Verdict v : kAllVerdicts) row.counts[v] += cell.counts[v];
  }
  std::vector<MatrixRow> out;
  out.reserve(rows.size());
  for (auto& [op, row] : rows) {
    // The matrix may come from a file in any order; the rows always read the same way.
    std::stable_sort(row.cells.begin(), row.cells.end(),
                     [](const MatrixCell* a, const MatrixCell* b) {
                       if (a->since_version != b->since_version) {
                         return a->since_version < b->since_version;
                       }
                       return TargetName(*a) < TargetName(*b);
                     });
    row.cell_class = ClassifyCounts(row.counts);
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<TargetCounts> CountsPerTarget(const RunRecord& run) {
  std::vector<TargetCounts> out;
  for (const std::string& target : RunTargets(run)) out.push_back({target, {}});
  for (const CaseRecord& c : run.cases) {
    const std::string target = TargetName(c);
    for (TargetCounts& t : out) {
      if (t.target == target) ++t.counts[c.verdict];
    }
  }
  return out;
}

std::vector<TargetDifference> DifferingOpVersions(const RunRecord& run,
                                                  const std::vector<std::string>& targets) {
  std::map<std::pair<std::string, int64_t>, TargetDifference> rows;
  for (const MatrixCell& cell : run.matrix) {
    const auto column = std::find(targets.begin(), targets.end(), TargetName(cell));
    if (column == targets.end()) continue;
    TargetDifference& row = rows[{cell.op, cell.since_version}];
    row.op = cell.op;
    row.since_version = cell.since_version;
    row.cells.resize(targets.size(), nullptr);
    row.cells[column - targets.begin()] = &cell;
  }
  std::vector<TargetDifference> out;
  for (auto& [key, row] : rows) {
    std::set<CellClass> classes;
    for (const MatrixCell* cell : row.cells) {
      classes.insert(cell == nullptr ? CellClass::kEmpty : ClassifyCounts(cell->counts));
    }
    if (classes.size() > 1) out.push_back(std::move(row));
  }
  return out;
}

CoverageTotals SumCoverage(const std::vector<CoverageRecord>& coverage) {
  CoverageTotals totals;
  for (const CoverageRecord& r : coverage) {
    ++totals.ops_total;
    totals.versions_covered += static_cast<int64_t>(r.covered_versions.size());
    totals.versions_total +=
        static_cast<int64_t>(r.covered_versions.size() + r.uncovered_versions.size());
    if (r.covered_versions.empty()) {
      totals.uncovered_ops.push_back(r.op);
      continue;
    }
    ++totals.ops_covered;
    if (!r.uncovered_versions.empty()) totals.partial_ops.push_back(&r);
  }
  return totals;
}

std::string FormatCoverageLine(const CoverageTotals& t) {
  return "ONNX operators with at least one case: " + std::to_string(t.ops_covered) + " of " +
         std::to_string(t.ops_total) +
         "; op versions covered: " + std::to_string(t.versions_covered) + " of " +
         std::to_string(t.versions_total);
}

std::string FormatVersions(const std::vector<int64_t>& versions) {
  std::string out;
  for (int64_t v : versions) {
    if (!out.empty()) out += ", ";
    out += "v" + std::to_string(v);
  }
  return out;
}

}  // namespace onnxgate
