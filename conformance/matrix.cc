// Matrix and coverage: plain counting over case records.
#include "conformance/matrix.h"

#include <map>
#include <set>
#include <tuple>

namespace onnxgate {

namespace {
bool IsFailing(Verdict v) {
  return v == Verdict::kFail || v == Verdict::kCrash || v == Verdict::kTimeout ||
         v == Verdict::kUnresolved || v == Verdict::kXpass;
}

// Whether metric thresholds (suite.json "metrics") judged one of the case's outputs.
bool JudgedByMetrics(const CaseRecord& c) {
  for (const OutputComparison& o : c.outputs) {
    if (!o.metrics.empty()) return true;
  }
  return false;
}
}  // namespace

std::vector<MatrixCell> BuildMatrix(const std::vector<CaseRecord>& cases) {
  std::map<std::tuple<std::string, int64_t, std::string, std::string>, MatrixCell> cells;
  for (const CaseRecord& c : cases) {
    // A failure attributed to one op counts under it alone (when the case's ops include it).
    const bool attributed = c.first_divergence && c.op_versions.count(c.first_divergence->op);
    // A metric-judged failure no op is named for is the model's (a quantized model's accuracy),
    // not every op's: it counts in no cell.
    if (IsFailing(c.verdict) && !attributed && JudgedByMetrics(c)) continue;
    for (const auto& [op, version] : c.op_versions) {
      if (attributed && c.first_divergence->op != op) continue;
      MatrixCell& cell = cells[{op, version, c.runtime, c.ep}];
      cell.op = op;
      cell.since_version = version;
      cell.runtime = c.runtime;
      cell.ep = c.ep;
      cell.counts[c.verdict] += 1;
      if (IsFailing(c.verdict)) cell.failing_cases.push_back(c.name);
    }
  }
  std::vector<MatrixCell> out;
  for (auto& [key, cell] : cells) out.push_back(std::move(cell));
  return out;
}

std::vector<CoverageRecord> BuildCoverage(const std::vector<OperatorVersions>& operators,
                                          const std::vector<CaseRecord>& cases) {
  std::set<std::pair<std::string, int64_t>> exercised;
  for (const CaseRecord& c : cases) {
    for (const auto& [op, version] : c.op_versions) exercised.insert({op, version});
  }
  std::vector<CoverageRecord> out;
  for (const OperatorVersions& o : operators) {
    CoverageRecord r;
    r.op = QualifiedOpName(o.domain, o.op_type);
    for (int v : o.since_versions) {
      (exercised.count({r.op, v}) ? r.covered_versions : r.uncovered_versions).push_back(v);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace onnxgate
