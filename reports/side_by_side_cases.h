// The cases of a side-by-side run (several runtimes or EPs in one run) whose raw outcome is not
// the same on every target: the case-level companion of DifferingOpVersions
// (reports/matrix_summary.h), for the Markdown and HTML reports.
#pragma once

#include <string>
#include <vector>

#include "reports/records.h"

namespace onnxgate {

// One case and its record on each target given; null where it has none (the target did not run
// it, or the run was interrupted before it did).
struct CaseAcrossTargets {
  std::string suite;
  std::string name;
  std::vector<const CaseRecord*> records;  // one per target, pointing into run.cases
};

// The cases whose raw outcome (CaseRecord::outcome) differs between two of `targets` that have a
// record of them, in the order the run first lists them; a case recorded on one target alone is
// not compared. Empty for fewer than two targets.
std::vector<CaseAcrossTargets> CasesDifferingAcrossTargets(const RunRecord& run,
                                                           const std::vector<std::string>& targets);

}  // namespace onnxgate
