// RenderCompatMatrixJson: the matrix as the "onnxgate-compat-matrix" object of
// docs/report-json-schema.md.
#include <nlohmann/json.hpp>

#include "harness/compat_matrix.h"

namespace onnxgate {

namespace {

using Json = nlohmann::ordered_json;

// Verdict -> count, the verdicts that occur only (as the run report's matrix writes them).
Json CountsJson(const VerdictCounts& counts) {
  Json j = Json::object();
  for (Verdict v : kAllVerdicts) {
    if (counts[v] != 0) j[VerdictToString(v)] = counts[v];
  }
  return j;
}

Json ColumnJson(const CompatColumn& c) {
  return Json{{"name", c.name},
              {"runtime", c.runtime},
              {"runtime_version", c.runtime_version},
              {"ep", c.ep},
              {"report", c.report},
              {"status", c.interrupted ? "interrupted" : "completed"},
              {"cases", c.counts.total()},
              {"passed", c.pass.passed},
              {"run", c.pass.run},
              {"counts", CountsJson(c.counts)}};
}

Json RowJson(const CompatRow& row) {
  Json cells = Json::array();
  for (const std::optional<CompatCell>& cell : row.cells) {
    if (!cell) {
      cells.push_back(nullptr);
      continue;
    }
    cells.push_back(Json{{"passed", cell->pass.passed},
                         {"run", cell->pass.run},
                         {"counts", CountsJson(cell->counts)},
                         {"failing_cases", cell->failing_cases}});
  }
  return Json{{"op", row.op},
              {"since_version", row.since_version},
              {"differs", row.differs},
              {"cells", std::move(cells)}};
}

Json CaseJson(const CompatCase& c) {
  Json outcomes = Json::array();
  for (const std::optional<CompatOutcome>& o : c.outcomes) {
    if (!o) {
      outcomes.push_back(nullptr);
      continue;
    }
    Json entry{{"outcome", VerdictToString(o->outcome)}};
    if (!o->message.empty()) entry["message"] = o->message;
    outcomes.push_back(std::move(entry));
  }
  Json op_versions = Json::object();
  for (const auto& [op, version] : c.op_versions) op_versions[op] = version;
  return Json{{"suite", c.suite},
              {"case", c.name},
              {"op_versions", std::move(op_versions)},
              {"outcomes", std::move(outcomes)}};
}

}  // namespace

std::string RenderCompatMatrixJson(const CompatMatrix& matrix) {
  Json j{{"schema", "onnxgate-compat-matrix"}, {"schema_version", 1}};
  j["columns"] = Json::array();
  for (const CompatColumn& c : matrix.columns) j["columns"].push_back(ColumnJson(c));
  j["op_versions"] = matrix.rows.size();
  j["op_versions_differing"] = matrix.DifferingRows();
  j["cases"] = matrix.cases;
  j["cases_differing"] = matrix.differing_cases.size();
  j["rows"] = Json::array();
  for (const CompatRow& row : matrix.rows) j["rows"].push_back(RowJson(row));
  j["differing_cases"] = Json::array();
  for (const CompatCase& c : matrix.differing_cases) j["differing_cases"].push_back(CaseJson(c));
  return j.dump(2, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace) + "\n";
}

}  // namespace onnxgate
