// MergeShardReports: checks that the shards belong to one run, then concatenates and recounts.
#include "harness/report_merge.h"

#include <algorithm>
#include <map>
#include <set>

#include "conformance/matrix.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

std::string RuntimesOf(const RunRecord& run) {
  std::string out = run.runtime_name + " " + run.runtime_version;
  for (const RuntimeRecord& r : run.runtimes) out += "; " + r.label + " " + r.version;
  return out;
}

std::string Joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

// "" when `b` can be merged with `a`, else what differs.
std::string Difference(const RunRecord& a, const RunRecord& b) {
  const std::pair<const char*, std::pair<std::string, std::string>> facts[] = {
      {"tool version", {a.tool_version, b.tool_version}},
      {"runtimes", {RuntimesOf(a), RuntimesOf(b)}},
      {"suites", {Joined(a.suites), Joined(b.suites)}},
      {"EPs", {Joined(a.selection.eps), Joined(b.selection.eps)}},
      {"filter", {a.selection.filter, b.selection.filter}},
      {"shard count",
       {std::to_string(a.selection.shard_count), std::to_string(b.selection.shard_count)}},
      {"isolation", {a.isolation, b.isolation}},
      {"release report",
       {a.gate ? a.gate->against_report : std::string(), b.gate ? b.gate->against_report : ""}},
  };
  for (const auto& [what, values] : facts) {
    if (values.first != values.second) {
      return std::string(what) + " '" + values.first + "' against '" + values.second + "'";
    }
  }
  return "";
}

void SortCases(const std::vector<std::string>& suites, std::vector<CaseRecord>* cases) {
  std::map<std::string, size_t> order;
  for (size_t i = 0; i < suites.size(); ++i) order.emplace(suites[i], i);
  std::stable_sort(cases->begin(), cases->end(), [&](const CaseRecord& x, const CaseRecord& y) {
    const size_t ox = order.count(x.suite) ? order[x.suite] : suites.size();
    const size_t oy = order.count(y.suite) ? order[y.suite] : suites.size();
    if (ox != oy) return ox < oy;
    if (x.name != y.name) return x.name < y.name;
    return TargetName(x) < TargetName(y);
  });
}

// The merged run's gate: unexpected outcomes counted again over every case, and the comparison
// with the release summed over the shards (each compared its own cases with the release's).
void RejudgeGate(const std::vector<RunRecord>& shards, bool strict, RunRecord* merged) {
  GateRecord& gate = *merged->gate;
  gate.strict = strict;
  gate.unexpected = CountUnexpected(merged->cases, strict);
  gate.worse_than_release = gate.better_than_release = gate.margin_grew_since_release = 0;
  for (const RunRecord& shard : shards) {
    if (!shard.gate) continue;
    gate.worse_than_release += shard.gate->worse_than_release;
    gate.better_than_release += shard.gate->better_than_release;
    gate.margin_grew_since_release += shard.gate->margin_grew_since_release;
  }
  gate.passed = gate.unexpected.total() == 0 && gate.worse_than_release == 0 &&
                merged->status == RunStatus::kCompleted;
}

}  // namespace

StatusOr<RunRecord> MergeShardReports(const std::vector<RunRecord>& shards,
                                      const std::vector<std::string>& paths, bool strict) {
  if (shards.empty()) return InvalidArgument("no reports to merge");
  std::set<int64_t> indices;
  for (size_t i = 0; i < shards.size(); ++i) {
    const std::string why = Difference(shards[0], shards[i]);
    if (!why.empty()) {
      return InvalidArgument(paths[i] + " is not a shard of the run of " + paths[0] + ": " + why);
    }
    if (!indices.insert(shards[i].selection.shard_index).second) {
      return InvalidArgument(paths[i] + " is shard " +
                             std::to_string(shards[i].selection.shard_index) +
                             " again (merged from another file already)");
    }
  }
  RunRecord merged = shards[0];
  merged.cases.clear();
  merged.not_run.clear();
  merged.selection.shard_index = 0;
  merged.selection.shard_count = 1;
  for (const RunRecord& shard : shards) {
    merged.cases.insert(merged.cases.end(), shard.cases.begin(), shard.cases.end());
    merged.not_run.insert(merged.not_run.end(), shard.not_run.begin(), shard.not_run.end());
    merged.start_time = std::min(merged.start_time, shard.start_time);
    merged.end_time = std::max(merged.end_time, shard.end_time);
    merged.duration_s = std::max(merged.duration_s, shard.duration_s);
    if (shard.status == RunStatus::kInterrupted) {
      merged.status = RunStatus::kInterrupted;
      merged.status_message = shard.status_message;
    }
  }
  const int64_t count = shards[0].selection.shard_count;
  if (static_cast<int64_t>(indices.size()) != count) {
    return InvalidArgument("the run has " + std::to_string(count) + " shard(s) and " +
                           std::to_string(indices.size()) + " were given");
  }
  SortCases(merged.suites, &merged.cases);
  merged.totals = CountVerdicts(merged.cases);
  merged.matrix = BuildMatrix(merged.cases);
  merged.coverage = BuildCoverage(AllOperators(), merged.cases);
  if (merged.gate) RejudgeGate(shards, strict, &merged);
  return merged;
}

}  // namespace onnxgate
