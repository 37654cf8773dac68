// Verdict names and counting for the result records.
#include "reports/records.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace onnxgate {
namespace {

constexpr std::array<LatencyVerdict, 6> kAllLatencyVerdicts = {
    LatencyVerdict::kRegression,   LatencyVerdict::kImprovement, LatencyVerdict::kUnchanged,
    LatencyVerdict::kInconclusive, LatencyVerdict::kNoBaseline,  LatencyVerdict::kError};

}  // namespace

const char* VerdictToString(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "PASS";
    case Verdict::kFail: return "FAIL";
    case Verdict::kUnsupported: return "UNSUPPORTED";
    case Verdict::kUnresolved: return "UNRESOLVED";
    case Verdict::kCrash: return "CRASH";
    case Verdict::kTimeout: return "TIMEOUT";
    case Verdict::kSkip: return "SKIP";
    case Verdict::kXfail: return "XFAIL";
    case Verdict::kXpass: return "XPASS";
  }
  return "UNKNOWN";
}

StatusOr<Verdict> VerdictFromString(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::string valid;
  for (Verdict v : kAllVerdicts) {
    if (upper == VerdictToString(v)) return v;
    valid += valid.empty() ? "" : ", ";
    valid += VerdictToString(v);
  }
  return InvalidArgument("unknown verdict \"" + name + "\", expected one of " + valid);
}

int64_t VerdictCounts::total() const {
  int64_t sum = 0;
  for (int64_t c : counts_) sum += c;
  return sum;
}

int64_t GateUnexpectedCounts::total() const {
  return failures + crashes + timeouts + unresolved + unsupported + xpass;
}

bool GateUnexpectedCounts::operator==(const GateUnexpectedCounts& o) const {
  return failures == o.failures && crashes == o.crashes && timeouts == o.timeouts &&
         unresolved == o.unresolved && unsupported == o.unsupported && xpass == o.xpass;
}

bool IsUnexpected(const CaseRecord& r, bool strict) {
  switch (r.verdict) {
    case Verdict::kPass:
    case Verdict::kXfail:
    case Verdict::kSkip: return false;
    case Verdict::kXpass: return strict;
    case Verdict::kUnsupported: return r.expectation_reason.empty();
    default: return true;
  }
}

GateUnexpectedCounts CountUnexpected(const std::vector<CaseRecord>& cases, bool strict) {
  GateUnexpectedCounts u;
  for (const CaseRecord& r : cases) {
    if (!IsUnexpected(r, strict)) continue;
    switch (r.verdict) {
      case Verdict::kFail: ++u.failures; break;
      case Verdict::kCrash: ++u.crashes; break;
      case Verdict::kTimeout: ++u.timeouts; break;
      case Verdict::kUnresolved: ++u.unresolved; break;
      case Verdict::kUnsupported: ++u.unsupported; break;
      case Verdict::kXpass: ++u.xpass; break;
      default: break;
    }
  }
  return u;
}

std::string DescribeUnexpected(const GateUnexpectedCounts& u) {
  struct Kind {
    int64_t count;
    const char* one;
    const char* many;
  };
  const Kind kinds[] = {
      {u.failures, "failure", "failures"},           {u.crashes, "crash", "crashes"},
      {u.timeouts, "timeout", "timeouts"},           {u.unresolved, "unresolved", "unresolved"},
      {u.unsupported, "unsupported", "unsupported"}, {u.xpass, "xpass", "xpass"}};
  std::string out;
  for (const Kind& k : kinds) {
    if (k.count == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::to_string(k.count) + " " + (k.count == 1 ? k.one : k.many);
  }
  return out;
}

FallbackSummary SummarizeFallbacks(const std::vector<FallbackRecord>& fallbacks) {
  FallbackSummary s;
  for (const FallbackRecord& f : fallbacks) {
    ++s.nodes;
    if (f.shape_only) ++s.shape_only;
    ++s.by_op[f.op_type];
  }
  s.cases = fallbacks.empty() ? 0 : 1;
  return s;
}

namespace {

void AddFallbacks(const FallbackSummary& one, FallbackSummary* sum) {
  sum->nodes += one.nodes;
  sum->shape_only += one.shape_only;
  sum->cases += one.cases;
  for (const auto& [op, n] : one.by_op) sum->by_op[op] += n;
}

}  // namespace

FallbackSummary SummarizeFallbacks(const std::vector<CaseRecord>& cases) {
  FallbackSummary sum;
  for (const CaseRecord& c : cases) AddFallbacks(SummarizeFallbacks(c.fallbacks), &sum);
  return sum;
}

std::string DescribeFallbacks(const FallbackSummary& summary, size_t max_ops) {
  std::vector<std::pair<std::string, int64_t>> ops(summary.by_op.begin(), summary.by_op.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string list;
  for (size_t i = 0; i < ops.size() && i < max_ops; ++i) {
    list += (list.empty() ? "" : ", ") + ops[i].first + " x" + std::to_string(ops[i].second);
  }
  if (ops.size() > max_ops) list += ", +" + std::to_string(ops.size() - max_ops) + " more";
  return std::to_string(summary.nodes) + (summary.nodes == 1 ? " node" : " nodes") +
         " (ops: " + list + "), of which " + std::to_string(summary.shape_only) + " shape-only";
}

std::vector<std::pair<std::string, FallbackSummary>> FallbacksByTarget(const RunRecord& run) {
  std::map<std::string, FallbackSummary> by_target;
  for (const CaseRecord& c : run.cases) {
    if (!c.fallbacks.empty())
      AddFallbacks(SummarizeFallbacks(c.fallbacks), &by_target[TargetName(c)]);
  }
  std::set<std::string> targets;
  for (const auto& entry : by_target) targets.insert(entry.first);
  std::vector<std::pair<std::string, FallbackSummary>> out;
  for (const std::string& target : OrderTargets(run, targets)) {
    out.emplace_back(target, by_target[target]);
  }
  return out;
}

std::string RunTitle(const RunRecord& run) { return run.gate ? "onnxgate gate" : "onnxgate run"; }

const char* LatencyVerdictToString(LatencyVerdict verdict) {
  switch (verdict) {
    case LatencyVerdict::kRegression: return "regression";
    case LatencyVerdict::kImprovement: return "improvement";
    case LatencyVerdict::kUnchanged: return "unchanged";
    case LatencyVerdict::kInconclusive: return "inconclusive";
    case LatencyVerdict::kNoBaseline: return "no-baseline";
    case LatencyVerdict::kError: return "error";
  }
  return "unknown";
}

StatusOr<LatencyVerdict> LatencyVerdictFromString(const std::string& name) {
  std::string valid;
  for (LatencyVerdict v : kAllLatencyVerdicts) {
    if (name == LatencyVerdictToString(v)) return v;
    valid += valid.empty() ? "" : ", ";
    valid += LatencyVerdictToString(v);
  }
  return InvalidArgument("unknown latency verdict \"" + name + "\", expected one of " + valid);
}

const char* RunStatusToString(RunStatus status) {
  switch (status) {
    case RunStatus::kCompleted: return "completed";
    case RunStatus::kInterrupted: return "interrupted";
  }
  return "unknown";
}

StatusOr<RunStatus> RunStatusFromString(const std::string& name) {
  for (RunStatus s : {RunStatus::kCompleted, RunStatus::kInterrupted}) {
    if (name == RunStatusToString(s)) return s;
  }
  return InvalidArgument("unknown run status \"" + name +
                         "\", expected one of completed, interrupted");
}

VerdictCounts CountVerdicts(const std::vector<CaseRecord>& cases) {
  VerdictCounts counts;
  for (const CaseRecord& c : cases) ++counts[c.verdict];
  return counts;
}

std::string TargetName(const std::string& runtime, const std::string& ep) {
  return runtime.empty() ? ep : runtime + "/" + ep;
}

std::vector<std::string> RecordRuntimeLabels(const RunRecord& run) {
  if (run.runtimes.size() <= 1) return {""};
  std::vector<std::string> labels;
  for (const RuntimeRecord& r : run.runtimes) labels.push_back(r.label);
  return labels;
}

std::vector<std::string> OrderTargets(const RunRecord& run, std::set<std::string> targets) {
  std::vector<std::string> ordered;
  for (const std::string& label : RecordRuntimeLabels(run)) {
    for (const std::string& ep : run.selection.eps) {
      if (targets.erase(TargetName(label, ep)) > 0) ordered.push_back(TargetName(label, ep));
    }
  }
  ordered.insert(ordered.end(), targets.begin(), targets.end());
  return ordered;
}

std::vector<std::string> RunTargets(const RunRecord& run) {
  std::set<std::string> seen;
  for (const CaseRecord& c : run.cases) seen.insert(TargetName(c));
  for (const MatrixCell& cell : run.matrix) seen.insert(TargetName(cell));
  for (const NotRunRecord& r : run.not_run) seen.insert(TargetName(r));
  return OrderTargets(run, std::move(seen));
}

bool IsLatencyOnly(const RunRecord& run) { return run.cases.empty() && !run.latency.empty(); }

}  // namespace onnxgate
