// Case selection by exact name, glob, op, opset, tag and shard.
#include "harness/selection.h"

#include <errno.h>
#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>

namespace onnxgate {

bool GlobMatch(const std::string& pattern, const std::string& name) {
  return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

namespace {

bool MatchesFilters(const std::vector<std::string>& filters, const std::string& name) {
  bool any_positive = false, included = false;
  for (const std::string& f : filters) {
    if (!f.empty() && f[0] == '-') {
      if (GlobMatch(f.substr(1), name)) return false;
    } else {
      any_positive = true;
      included = included || GlobMatch(f, name);
    }
  }
  return !any_positive || included;
}

template <typename T>
bool AnyOf(const std::vector<T>& wanted, const std::vector<T>& have) {
  if (wanted.empty()) return true;
  return std::any_of(have.begin(), have.end(), [&](const T& h) {
    return std::find(wanted.begin(), wanted.end(), h) != wanted.end();
  });
}

}  // namespace

StatusOr<ExactCase> ParseExactCase(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) {
    return InvalidArgument("--case '" + text + "': expected <suite>/<case name>");
  }
  return ExactCase{text.substr(0, slash), text.substr(slash + 1)};
}

Status CheckExactCasesExist(const std::vector<Suite>& suites, const Selection& selection) {
  for (const ExactCase& wanted : selection.cases) {
    const std::string named =
        "--case " + wanted.suite + "/" + wanted.name + ": suite '" + wanted.suite + "' ";
    auto suite = std::find_if(suites.begin(), suites.end(),
                              [&](const Suite& s) { return s.name == wanted.suite; });
    if (suite == suites.end()) return NotFound(named + "is not among the --suite given");
    const bool found = std::any_of(suite->cases.begin(), suite->cases.end(),
                                   [&](const SuiteCase& c) { return c.name == wanted.name; });
    if (!found) return NotFound(named + "has no case named exactly '" + wanted.name + "'");
  }
  return OkStatus();
}

std::vector<const SuiteCase*> SelectCases(const Suite& suite, const Selection& selection) {
  std::vector<const SuiteCase*> kept;
  for (const SuiteCase& c : suite.cases) {
    if (!selection.cases.empty() &&
        std::find(selection.cases.begin(), selection.cases.end(), ExactCase{suite.name, c.name}) ==
            selection.cases.end()) {
      continue;
    }
    if (!MatchesFilters(selection.filters, c.name)) continue;
    if (!AnyOf(selection.op_types, c.op_types)) continue;
    if (!AnyOf(selection.opsets, std::vector<int64_t>{c.default_opset()})) continue;
    if (!AnyOf(selection.tags, c.tags)) continue;
    kept.push_back(&c);
  }
  if (selection.shard_count <= 1) return kept;
  std::vector<const SuiteCase*> shard;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (static_cast<int64_t>(i % selection.shard_count) == selection.shard_index) {
      shard.push_back(kept[i]);
    }
  }
  return shard;
}

namespace {

// The whole number in environment variable `name`; InvalidArgument naming it otherwise.
StatusOr<int64_t> EnvironmentNumber(const char* name) {
  const char* text = std::getenv(name);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (*text == '\0' || *end != '\0' || errno != 0) {
    return InvalidArgument(std::string(name) + " is not a number: " + text);
  }
  return static_cast<int64_t>(v);
}

bool HasEnvironment(const char* name) { return std::getenv(name) != nullptr; }

// Sets the shard from an index variable (`base`: 0 or 1 for the first shard) and a count.
Status ApplyShardPair(const char* index_name, const char* count_name, int64_t base,
                      Selection& selection) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t index, EnvironmentNumber(index_name));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t count, EnvironmentNumber(count_name));
  if (count < 1 || index < base || index - base >= count) {
    return InvalidArgument(std::string(index_name) + " " + std::to_string(index) + " is not in [" +
                           std::to_string(base) + ", " + std::to_string(count + base) + ") (" +
                           count_name + " " + std::to_string(count) + ")");
  }
  selection.shard_index = index - base;
  selection.shard_count = count;
  return OkStatus();
}

}  // namespace

Status ApplyShardEnvironment(Selection& selection, bool index_given) {
  if (selection.shard_count > 1) {
    if (index_given || !HasEnvironment("JOB_COMPLETION_INDEX")) return OkStatus();
    ONNXGATE_ASSIGN_OR_RETURN(int64_t index, EnvironmentNumber("JOB_COMPLETION_INDEX"));
    if (index < 0 || index >= selection.shard_count) {
      return InvalidArgument("JOB_COMPLETION_INDEX " + std::to_string(index) +
                             " is not in [0, --shard-count " +
                             std::to_string(selection.shard_count) + ")");
    }
    selection.shard_index = index;
    return OkStatus();
  }
  if (HasEnvironment("GTEST_SHARD_INDEX") && HasEnvironment("GTEST_TOTAL_SHARDS")) {
    return ApplyShardPair("GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS", 0, selection);
  }
  if (HasEnvironment("CI_NODE_INDEX") && HasEnvironment("CI_NODE_TOTAL")) {
    return ApplyShardPair("CI_NODE_INDEX", "CI_NODE_TOTAL", 1, selection);
  }
  return OkStatus();
}

}  // namespace onnxgate
