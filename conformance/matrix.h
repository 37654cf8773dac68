// The conformance matrix (op x op version x EP, counts per verdict) and operator coverage
// (which ONNX operator versions have at least one case), computed from a run's case records.
#pragma once

#include <vector>

#include "conformance/op_schemas.h"
#include "reports/records.h"

namespace onnxgate {

// One cell per (op, active version, EP) seen in the cases' op_versions, sorted by op, version, EP.
std::vector<MatrixCell> BuildMatrix(const std::vector<CaseRecord>& cases);

// For each operator in `operators` (normally AllOperators()), its versions split into those some
// case exercises and those none does.
std::vector<CoverageRecord> BuildCoverage(const std::vector<OperatorVersions>& operators,
                                          const std::vector<CaseRecord>& cases);

}  // namespace onnxgate
