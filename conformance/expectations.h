// Expectations per EP (conformance/expectations/<ep>.json): which cases are known not to pass,
// with a status (unsupported or xfail), a reason and optionally an opset range. Applying them
// turns raw outcomes into the verdicts a gate judges; `update` rewrites the file from a run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

enum class ExpectedStatus { kUnsupported, kXfail };
const char* ExpectedStatusName(ExpectedStatus status);  // "unsupported", "xfail"

struct Expectation {
  std::string case_pattern;  // a case name or an fnmatch glob
  std::string suite;         // empty: any suite
  ExpectedStatus status = ExpectedStatus::kXfail;
  std::string reason;
  std::optional<int64_t> min_opset;  // default-domain opset range, inclusive
  std::optional<int64_t> max_opset;
  bool review = false;  // written by `expectations update` for a new entry: a person must check it
};

struct ExpectationFile {
  std::string ep;
  std::vector<Expectation> entries;

  // The first entry (in file order) whose pattern, suite and opset range match the case.
  const Expectation* Find(const CaseRecord& record) const;
};

StatusOr<ExpectationFile> LoadExpectations(const std::string& path);
// An empty file for `ep` when `path` does not exist; errors for a file that exists but is bad.
StatusOr<ExpectationFile> LoadExpectationsOrEmpty(const std::string& path, const std::string& ep);
std::string RenderExpectations(const ExpectationFile& file);
Status WriteExpectations(const std::string& path, const ExpectationFile& file);

// Sets a record's verdict from its outcome and the expectations:
//   PASS with an entry              -> XPASS (message says how to update the file)
//   UNSUPPORTED, entry unsupported  -> UNSUPPORTED, expected (expectation_reason set)
//   FAIL/CRASH/TIMEOUT/UNRESOLVED, entry xfail -> XFAIL (expectation_reason set)
//   anything else                   -> unchanged, unexpected
void ApplyExpectation(const ExpectationFile& file, const std::string& expectations_path,
                      CaseRecord& record);
// ApplyExpectation on each record.
void ApplyExpectations(const ExpectationFile& file, const std::string& expectations_path,
                       std::vector<CaseRecord>& records);

// Whether a record breaks the gate: FAIL, CRASH, TIMEOUT, UNRESOLVED, UNSUPPORTED that no
// expectation predicted, and XPASS when `strict`.
bool IsUnexpected(const CaseRecord& record, bool strict);

// Rewrites `file` from a run: one entry per case whose outcome is not PASS (unsupported for
// UNSUPPORTED, xfail otherwise), keeping the reason (and review mark) of the entry that matched
// it before; new entries get the run's message as reason and review = true. Glob entries that
// still match a non-passing case are kept as they are; entries matching only passing cases go.
ExpectationFile UpdateExpectations(const ExpectationFile& file, const std::vector<CaseRecord>& run);

}  // namespace onnxgate
