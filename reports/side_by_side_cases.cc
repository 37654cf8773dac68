// CasesDifferingAcrossTargets.
#include "reports/side_by_side_cases.h"

#include <algorithm>
#include <map>
#include <utility>

namespace onnxgate {

namespace {

// Two of the targets that have a record of the case disagree on its outcome.
bool Differs(const CaseAcrossTargets& row) {
  const CaseRecord* first = nullptr;
  for (const CaseRecord* r : row.records) {
    if (r == nullptr) continue;
    if (first != nullptr && r->outcome != first->outcome) return true;
    if (first == nullptr) first = r;
  }
  return false;
}

}  // namespace

std::vector<CaseAcrossTargets> CasesDifferingAcrossTargets(
    const RunRecord& run, const std::vector<std::string>& targets) {
  if (targets.size() < 2) return {};
  std::vector<CaseAcrossTargets> rows;
  std::map<std::pair<std::string, std::string>, size_t> row_of;
  for (const CaseRecord& c : run.cases) {
    const auto column = std::find(targets.begin(), targets.end(), TargetName(c));
    if (column == targets.end()) continue;
    const auto [it, added] = row_of.emplace(std::make_pair(c.suite, c.name), rows.size());
    if (added) rows.push_back({c.suite, c.name, std::vector<const CaseRecord*>(targets.size())});
    rows[it->second].records[column - targets.begin()] = &c;
  }
  std::vector<CaseAcrossTargets> out;
  for (CaseAcrossTargets& row : rows) {
    if (Differs(row)) out.push_back(std::move(row));
  }
  return out;
}

}  // namespace onnxgate
