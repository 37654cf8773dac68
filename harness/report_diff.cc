// DiffReports: verdict changes and grown errors between two reports.
#include "harness/report_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace onnxgate {

namespace {

std::string Key(const std::string& suite, const std::string& name, const std::string& target) {
  return suite + "/" + name + " [" + target + "]";
}

bool Passes(Verdict v) { return v == Verdict::kPass || v == Verdict::kXpass; }
bool Dies(Verdict v) { return v == Verdict::kCrash || v == Verdict::kTimeout; }

VerdictChange ChangeOf(Verdict before, Verdict after) {
  if (Passes(before) && !Passes(after)) return VerdictChange::kWorse;
  if (!Passes(before) && Passes(after)) return VerdictChange::kBetter;
  if (Dies(after) && !Dies(before)) return VerdictChange::kWorse;
  return VerdictChange::kOther;
}

std::string OpVersions(const CaseRecord& c) {
  std::string out;
  for (const auto& [op, version] : c.op_versions) {
    out += (out.empty() ? "" : ", ") + op + " v" + std::to_string(version);
  }
  return out.empty() ? "(no op versions)" : out;
}

std::set<std::string> CaseTargets(const RunRecord& run) {
  std::set<std::string> targets;
  for (const CaseRecord& c : run.cases) targets.insert(TargetName(c));
  return targets;
}

const OutputComparison* SameOutput(const CaseRecord& c, const OutputComparison& output) {
  for (const OutputComparison& o : c.outputs) {
    if (o.output_name == output.output_name && o.set_index == output.set_index) return &o;
  }
  return nullptr;
}

// The output of a case passing in both reports whose error grew the most, if one grew.
std::optional<MarginGrowth> GrownMargin(const CaseRecord& before, const CaseRecord& after) {
  std::optional<MarginGrowth> worst;
  double worst_factor = 0.0;
  for (const OutputComparison& now : after.outputs) {
    const OutputComparison* was = SameOutput(before, now);
    if (!now.passed || was == nullptr || !was->passed) continue;
    if (!std::isfinite(now.max_abs_error) || !std::isfinite(was->max_abs_error)) continue;
    if (now.max_abs_error <= kMarginGrowthFactor * was->max_abs_error) continue;
    const double used = OutputToleranceUsed(now);
    if (used < kMarginToleranceShare) continue;
    const double factor =
        was->max_abs_error > 0 ? now.max_abs_error / was->max_abs_error : HUGE_VAL;
    if (worst && factor <= worst_factor) continue;
    worst_factor = factor;
    worst = MarginGrowth{after.suite,        after.name,        TargetName(after),
                         OpVersions(after),  now.output_name,   now.set_index,
                         was->max_abs_error, now.max_abs_error, used};
  }
  return worst;
}

}  // namespace

const char* VerdictChangeName(VerdictChange change) {
  switch (change) {
    case VerdictChange::kWorse: return "worse";
    case VerdictChange::kBetter: return "better";
    case VerdictChange::kOther: return "changed";
  }
  return "?";
}

double OutputToleranceUsed(const OutputComparison& output) {
  double used = 0.0;
  if (output.atol > 0 && std::isfinite(output.min_passing_atol)) {
    used = std::max(used, output.min_passing_atol / output.atol);
  }
  if (output.rtol > 0 && std::isfinite(output.min_passing_rtol)) {
    used = std::max(used, output.min_passing_rtol / output.rtol);
  }
  return used;
}

size_t ReportDiff::Count(VerdictChange change) const {
  size_t n = 0;
  for (const CaseChange& c : changes) n += c.change == change ? 1 : 0;
  return n;
}

ReportDiff DiffReports(const RunRecord& before, const RunRecord& after) {
  ReportDiff diff;
  const std::set<std::string> targets_before = CaseTargets(before);
  const std::set<std::string> targets_after = CaseTargets(after);
  // One target each, named differently: the same cases on another EP or runtime.
  const bool by_case =
      targets_before.size() == 1 && targets_after.size() == 1 && targets_before != targets_after;
  if (by_case) {
    diff.target_before = *targets_before.begin();
    diff.target_after = *targets_after.begin();
  }
  const auto match_key = [by_case](const CaseRecord& c) {
    return Key(c.suite, c.name, by_case ? "" : TargetName(c));
  };
  std::map<std::string, const CaseRecord*> earlier;
  for (const CaseRecord& c : before.cases) earlier[match_key(c)] = &c;
  for (const CaseRecord& c : after.cases) {
    const auto found = earlier.find(match_key(c));
    if (found == earlier.end()) {
      diff.only_after.push_back(Key(c.suite, c.name, TargetName(c)));
      continue;
    }
    const CaseRecord& was = *found->second;
    earlier.erase(found);
    if (was.outcome == Verdict::kPass && c.outcome == Verdict::kPass) {
      if (auto grown = GrownMargin(was, c)) diff.margin_grew.push_back(std::move(*grown));
    }
    if (was.outcome == c.outcome) continue;
    diff.changes.push_back({c.suite, c.name, TargetName(c), was.outcome, c.outcome,
                            ChangeOf(was.outcome, c.outcome), OpVersions(c), c.message});
  }
  for (const auto& [key, record] : earlier) {
    diff.only_before.push_back(Key(record->suite, record->name, TargetName(*record)));
  }
  return diff;
}

std::string ReportDiffSummary(const ReportDiff& diff) {
  std::string out = std::to_string(diff.Count(VerdictChange::kWorse)) + " worse, " +
                    std::to_string(diff.Count(VerdictChange::kBetter)) + " better, " +
                    std::to_string(diff.Count(VerdictChange::kOther)) + " changed otherwise, " +
                    std::to_string(diff.margin_grew.size()) +
                    " with a larger error (still passing)";
  if (!diff.only_before.empty() || !diff.only_after.empty()) {
    out += "; " + std::to_string(diff.only_before.size()) + " case(s) only in the first report, " +
           std::to_string(diff.only_after.size()) + " only in the second";
  }
  if (!diff.target_before.empty()) {
    out +=
        "; cases on " + diff.target_before + " matched with the same cases on " + diff.target_after;
  }
  return out;
}

}  // namespace onnxgate
