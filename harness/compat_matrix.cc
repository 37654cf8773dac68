// BuildCompatMatrix: columns, cells and differing cases from several run reports.
#include "harness/compat_matrix.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "conformance/matrix.h"
#include "reports/format.h"

namespace onnxgate {

namespace {

// A target of one report: its runtime label (empty in a run of one runtime) and EP.
using TargetKey = std::pair<std::string, std::string>;
using CaseKey = std::pair<std::string, std::string>;  // suite, name
using RowKey = std::pair<std::string, int64_t>;       // op, version
using OutcomesByColumn = std::map<size_t, CompatOutcome>;

PassCount PassCountOf(const VerdictCounts& counts) {
  return {counts[Verdict::kPass] + counts[Verdict::kXpass],
          counts.total() - counts[Verdict::kSkip]};
}

std::string RuntimeOf(const RunRecord& run, const std::string& label) {
  return label.empty() ? run.runtime_name : label;
}

std::string RuntimeVersionOf(const RunRecord& run, const std::string& label) {
  if (label.empty()) return run.runtime_version;
  for (const RuntimeRecord& r : run.runtimes) {
    if (r.label == label) return r.version;
  }
  return "";
}

// Two pass shares differ (both columns ran something).
bool SharesDiffer(const PassCount& a, const PassCount& b) {
  return a.passed * b.run != b.passed * a.run;
}

class CompatBuilder {
 public:
  Status Add(const CompatReport& report) {
    const RunRecord& run = report.run;
    if (run.cases.empty()) {
      return InvalidArgument(report.file +
                             ": holds no case results (a bench report, or a run that selected no "
                             "case); the matrix is made of run and gate reports");
    }
    std::map<TargetKey, size_t> columns;
    ONNXGATE_RETURN_IF_ERROR(AddColumns(report, &columns));
    for (const CaseRecord& c : run.cases) AddCase(c, columns.at({c.runtime, c.ep}));
    const std::vector<MatrixCell> built = run.matrix.empty() ? BuildMatrix(run.cases) : run.matrix;
    for (const MatrixCell& cell : built) {
      auto column = columns.find({cell.runtime, cell.ep});
      if (column == columns.end()) continue;  // a cell of no case: nothing to compare it with
      CompatCell& out = cells_[{cell.op, cell.since_version}][column->second];
      for (Verdict v : kAllVerdicts) out.counts[v] += cell.counts[v];
      out.failing_cases.insert(out.failing_cases.end(), cell.failing_cases.begin(),
                               cell.failing_cases.end());
    }
    return OkStatus();
  }

  CompatMatrix Finish() && {
    NameVersionedColumns();
    for (auto& [key, by_column] : cells_) matrix_.rows.push_back(MakeRow(key, by_column));
    matrix_.cases = static_cast<int64_t>(cases_.size());
    for (auto& [key, by_column] : cases_) {
      if (!Differs(by_column)) continue;
      CompatCase c{key.first, key.second, op_versions_[key], {}};
      c.outcomes.resize(matrix_.columns.size());
      for (auto& [column, outcome] : by_column) c.outcomes[column] = std::move(outcome);
      matrix_.differing_cases.push_back(std::move(c));
    }
    return std::move(matrix_);
  }

 private:
  // The report's targets as columns, in the order the report shows them.
  Status AddColumns(const CompatReport& report, std::map<TargetKey, size_t>* columns) {
    const RunRecord& run = report.run;
    std::map<std::string, TargetKey> by_name;
    for (const CaseRecord& c : run.cases)
      by_name.emplace(TargetName(c), TargetKey{c.runtime, c.ep});
    std::set<std::string> names;
    for (const auto& [name, key] : by_name) names.insert(name);
    for (const std::string& target : OrderTargets(run, std::move(names))) {
      const TargetKey& key = by_name.at(target);
      CompatColumn column;
      column.runtime = RuntimeOf(run, key.first);
      column.runtime_version = RuntimeVersionOf(run, key.first);
      column.ep = key.second;
      column.name = column.runtime + "/" + column.ep;
      column.report = report.file;
      column.interrupted = run.status == RunStatus::kInterrupted;
      ONNXGATE_RETURN_IF_ERROR(CheckNewColumn(column));
      (*columns)[key] = matrix_.columns.size();
      matrix_.columns.push_back(std::move(column));
    }
    return OkStatus();
  }

  // A runtime/EP (at one version) may come from one report only.
  Status CheckNewColumn(const CompatColumn& column) const {
    for (const CompatColumn& other : matrix_.columns) {
      if (other.name != column.name || other.runtime_version != column.runtime_version) continue;
      if (other.report == column.report) return InvalidArgument(column.report + ": given twice");
      return InvalidArgument(column.report + ": the column " + column.name + " is also in " +
                             other.report + "; each runtime/EP may come from one report only");
    }
    return OkStatus();
  }

  // Columns of one runtime/EP at several versions are named "<runtime>@<version>/<ep>".
  void NameVersionedColumns() {
    std::map<std::string, std::set<std::string>> versions;
    for (const CompatColumn& c : matrix_.columns) versions[c.name].insert(c.runtime_version);
    for (CompatColumn& c : matrix_.columns) {
      if (versions[c.name].size() > 1) c.name = c.runtime + "@" + c.runtime_version + "/" + c.ep;
    }
  }

  void AddCase(const CaseRecord& c, size_t column) {
    CompatColumn& col = matrix_.columns[column];
    col.counts[c.verdict] += 1;
    if (c.outcome != Verdict::kSkip) ++col.pass.run;
    if (c.outcome == Verdict::kPass) ++col.pass.passed;
    const CaseKey key{c.suite, c.name};
    op_versions_.emplace(key, c.op_versions);
    CompatOutcome outcome{c.outcome, c.outcome == Verdict::kPass ? "" : c.message};
    cases_[key][column] = std::move(outcome);
  }

  CompatRow MakeRow(const RowKey& key, std::map<size_t, CompatCell>& by_column) const {
    CompatRow row{key.first, key.second, {}, false};
    row.cells.resize(matrix_.columns.size());
    std::vector<PassCount> ran;
    for (auto& [column, cell] : by_column) {
      cell.pass = PassCountOf(cell.counts);
      if (cell.pass.run > 0) ran.push_back(cell.pass);
      row.cells[column] = std::move(cell);
    }
    for (const PassCount& p : ran) row.differs = row.differs || SharesDiffer(p, ran.front());
    return row;
  }

  static bool Differs(const OutcomesByColumn& by_column) {
    bool passed = false, not_passed = false;
    for (const auto& [column, o] : by_column) {
      passed = passed || o.outcome == Verdict::kPass;
      not_passed = not_passed || (o.outcome != Verdict::kPass && o.outcome != Verdict::kSkip);
    }
    return passed && not_passed;
  }

  CompatMatrix matrix_;
  std::map<RowKey, std::map<size_t, CompatCell>> cells_;
  std::map<CaseKey, OutcomesByColumn> cases_;
  std::map<CaseKey, std::map<std::string, int64_t>> op_versions_;
};

}  // namespace

std::optional<double> PassCount::Share() const {
  if (run <= 0) return std::nullopt;
  return static_cast<double>(passed) / static_cast<double>(run);
}

size_t CompatMatrix::DifferingRows() const {
  return static_cast<size_t>(
      std::count_if(rows.begin(), rows.end(), [](const CompatRow& r) { return r.differs; }));
}

StatusOr<CompatMatrix> BuildCompatMatrix(const std::vector<CompatReport>& reports) {
  if (reports.empty()) return InvalidArgument("no report given: name at least one");
  CompatBuilder builder;
  for (const CompatReport& report : reports) ONNXGATE_RETURN_IF_ERROR(builder.Add(report));
  return std::move(builder).Finish();
}

std::string CompatMatrixSummary(const CompatMatrix& matrix) {
  std::ostringstream out;
  out << "Compatibility matrix: " << matrix.columns.size() << " column(s), " << matrix.rows.size()
      << " op version(s), " << matrix.DifferingRows() << " with pass shares that differ; "
      << matrix.cases << " case(s), " << matrix.differing_cases.size()
      << " passing in one column and not in another\n";
  size_t width = 0;
  for (const CompatColumn& c : matrix.columns) width = std::max(width, c.name.size());
  for (const CompatColumn& c : matrix.columns) {
    const std::optional<double> share = c.pass.Share();
    out << "  " << c.name << std::string(width - c.name.size(), ' ') << "  " << c.pass.passed << "/"
        << c.pass.run << " passed" << (share ? " (" + FormatPercent(*share) + ")" : "")
        << (c.interrupted ? ", interrupted run" : "") << "  [" << c.report << "]\n";
  }
  return out.str();
}

}  // namespace onnxgate
