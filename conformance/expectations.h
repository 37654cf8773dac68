// Expectations per EP (conformance/expectations/<ep>.json): which cases are known not to pass,
// with a status (unsupported, xfail or nondeterministic), a reason and optionally an opset range.
// Applying them turns raw outcomes into the verdicts a gate judges; `update` rewrites the file
// from a run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// kNondeterministic is for cases whose expected values are one draw of an unseeded random op
// (Bernoulli, RandomUniformLike): the values may match by chance, so PASS and a FAIL in element
// values alone are both predicted; a shape or dtype mismatch, a crash or an unsupported node are
// not.
enum class ExpectedStatus { kUnsupported, kXfail, kNondeterministic };
// "unsupported", "xfail", "nondeterministic"
const char* ExpectedStatusName(ExpectedStatus status);

// The outcomes an xfail entry may predict: FAIL, CRASH, TIMEOUT, UNRESOLVED.
bool IsXfailVerdict(Verdict verdict);

struct Expectation {
  std::string case_pattern;  // a case name or an fnmatch glob
  std::string suite;         // empty: any suite
  ExpectedStatus status = ExpectedStatus::kXfail;
  // xfail only: the one outcome the entry predicts ("verdict" in the file, FAIL when absent);
  // any other failing outcome of the case is unexpected.
  Verdict verdict = Verdict::kFail;
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

// Every field is checked for its JSON type and value: an error names the file, the entry (its
// index and case) and the field, with what was expected and what was found. An unknown field is
// an error too.
StatusOr<ExpectationFile> LoadExpectations(const std::string& path);
// An empty file for `ep` when `path` does not exist; errors for a file that exists but is bad.
StatusOr<ExpectationFile> LoadExpectationsOrEmpty(const std::string& path, const std::string& ep);
std::string RenderExpectations(const ExpectationFile& file);
Status WriteExpectations(const std::string& path, const ExpectationFile& file);

// Sets a record's verdict from its outcome and the expectations:
//   PASS, entry nondeterministic    -> PASS, expected (expectation_reason set)
//   PASS with another entry         -> XPASS (message says how to update the file)
//   UNSUPPORTED, entry unsupported  -> UNSUPPORTED, expected (expectation_reason set)
//   the outcome an xfail entry names (FAIL unless its verdict is CRASH, TIMEOUT or UNRESOLVED)
//                                   -> XFAIL (expectation_reason set)
//   another failing outcome, entry xfail -> unchanged, unexpected; the message says which
//                                   outcome the entry expected and which one came
//   FAIL in element values only, entry nondeterministic -> XFAIL (expectation_reason set)
//   anything else                   -> unchanged, unexpected
void ApplyExpectation(const ExpectationFile& file, const std::string& expectations_path,
                      CaseRecord& record);
// ApplyExpectation on each record.
void ApplyExpectations(const ExpectationFile& file, const std::string& expectations_path,
                       std::vector<CaseRecord>& records);

// IsUnexpected (reports/records.h) says whether a judged record breaks the gate.

// Rewrites `file` from a run: one entry per case whose outcome is not PASS (unsupported for
// UNSUPPORTED, xfail naming the outcome otherwise: FAIL, CRASH, TIMEOUT or UNRESOLVED), keeping
// the reason (and review mark) of the entry that matched it before, marked for review when the
// status or the predicted outcome changed; new entries get the run's message as reason and
// review = true. A nondeterministic entry stays as it is while its cases PASS or FAIL in values
// only. Glob entries that still predict a non-passing case's outcome are kept as they are;
// entries matching only passing cases go.
ExpectationFile UpdateExpectations(const ExpectationFile& file, const std::vector<CaseRecord>& run);

}  // namespace onnxgate
