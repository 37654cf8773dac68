// Case selection by exact name, glob, op, opset, tag and shard.
#include "harness/selection.h"

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

Status ApplyShardEnvironment(Selection& selection) {
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  if (selection.shard_count > 1 || index == nullptr || total == nullptr) return OkStatus();
  char* end = nullptr;
  long long i = std::strtoll(index, &end, 10);
  if (*end != '\0')
    return InvalidArgument(std::string("GTEST_SHARD_INDEX is not a number: ") + index);
  long long n = std::strtoll(total, &end, 10);
  if (*end != '\0')
    return InvalidArgument(std::string("GTEST_TOTAL_SHARDS is not a number: ") + total);
  if (n < 1 || i < 0 || i >= n) {
    return InvalidArgument("GTEST_SHARD_INDEX " + std::to_string(i) + " is not in [0, " +
                           std::to_string(n) + ")");
  }
  selection.shard_index = i;
  selection.shard_count = n;
  return OkStatus();
}

}  // namespace onnxgate
