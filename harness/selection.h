// Case selection: --filter globs, --op, --opset, and sharding across CI machines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/suite.h"

namespace onnxgate {

struct Selection {
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

// Reads GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS into `selection` when set (flags win when given).
Status ApplyShardEnvironment(Selection& selection);

}  // namespace onnxgate
