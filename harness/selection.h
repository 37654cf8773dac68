// Case selection: --case exact names, --filter globs, --op, --opset, and sharding across CI
// machines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/suite.h"

namespace onnxgate {

// One case named exactly (--case <suite>/<name>): no glob, no exclusion.
struct ExactCase {
  std::string suite;
  std::string name;
  bool operator==(const ExactCase& other) const {
    return suite == other.suite && name == other.name;
  }
};

// "<suite>/<name>" split at its first '/' (a suite name holds none; a case name may). The name
// is taken byte for byte, so "glob*" or "-x" names one case. InvalidArgument when either part is
// empty.
StatusOr<ExactCase> ParseExactCase(const std::string& text);

struct Selection {
  // Cases named exactly; when any is given, only they are candidates for the other filters.
  std::vector<ExactCase> cases;
  // Glob patterns (fnmatch) on case names; a case matches if any matches. A leading '-' excludes.
  std::vector<std::string> filters;
  std::vector<std::string> op_types;  // the case uses any of these ops
  std::vector<int64_t> opsets;        // the case's default-domain opset is one of these
  std::vector<std::string> tags;      // the case has any of these tags
  int64_t shard_index = 0;
  int64_t shard_count = 1;
};

// Whether `name` matches the fnmatch glob `pattern`.
bool GlobMatch(const std::string& pattern, const std::string& name);

// The cases of `suite` that the selection keeps, in suite order; sharding takes every
// shard_count-th case from the filtered list starting at shard_index.
std::vector<const SuiteCase*> SelectCases(const Suite& suite, const Selection& selection);

// NotFound for the first of selection.cases that names a suite not among `suites` or a case its
// suite lacks: a mistyped exact name is an error, not an empty run.
Status CheckExactCasesExist(const std::vector<Suite>& suites, const Selection& selection);

// Reads a CI system's shard into `selection` when the flags do not give it (flags win):
//   - GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS (CTest, GoogleTest; 0-based), when --shard-count is
//     not given;
//   - else CI_NODE_INDEX / CI_NODE_TOTAL (GitLab's parallel jobs; 1-based), likewise;
//   - JOB_COMPLETION_INDEX (a Kubernetes indexed Job; 0-based, no count of its own) as the index
//     when --shard-count is given and --shard-index is not (`index_given`).
// InvalidArgument naming the variable for a value that is not a whole number or out of range.
Status ApplyShardEnvironment(Selection& selection, bool index_given = false);

}  // namespace onnxgate
