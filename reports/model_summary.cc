// Model runs and the margins of their outputs, in words.
#include "reports/model_summary.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <utility>

#include "reports/format.h"

namespace onnxgate {
namespace {

// The share of a tolerance that an output used: the smallest passing value over the one used;
// from ten times the tolerance on, a factor ("2.5e+06x atol") reads better than a percentage.
std::string ShareOf(double smallest_passing, double used, const char* name) {
  const double share = smallest_passing / used;
  if (share >= 10) return FormatNumber(share) + "x " + name;
  return FormatPercent(share) + " of " + name;
}

// The largest (or, with `smallest`, the smallest) of needed / given over the tolerances given
// (a zero tolerance is left out); absent when none is given or a share is not finite.
std::optional<double> Share(std::initializer_list<std::pair<double, double>> needed_given,
                            bool smallest) {
  std::optional<double> share;
  for (const auto& [needed, given] : needed_given) {
    if (given <= 0.0) continue;
    const double s = needed / given;
    if (!std::isfinite(s)) return std::nullopt;
    share = !share ? s : smallest ? std::min(*share, s) : std::max(*share, s);
  }
  return share;
}

std::string DescribeElementwiseMargin(const OutputComparison& o) {
  const bool rtol_passes = std::isfinite(o.min_passing_rtol);
  const bool atol_passes = std::isfinite(o.min_passing_atol);
  if (!rtol_passes && !atol_passes) return "no tolerance passes";
  if (o.max_abs_error == 0) return "exact";
  if (o.min_passing_atol == 0 && o.min_passing_rtol == 0 && o.atol > 0 && o.rtol > 0) {
    // Either tolerance alone covers the error: how much of each it takes on its own.
    return "uses " + ShareOf(o.max_abs_error, o.atol, "atol") + " or " +
           ShareOf(o.max_rel_error, o.rtol, "rtol") + " alone";
  }
  std::vector<std::string> shares;
  if (o.atol > 0 && atol_passes) shares.push_back(ShareOf(o.min_passing_atol, o.atol, "atol"));
  if (o.rtol > 0 && rtol_passes) shares.push_back(ShareOf(o.min_passing_rtol, o.rtol, "rtol"));
  if (shares.empty()) return "no tolerance passes";
  return "uses " + JoinStrings(shares, ", ");
}

}  // namespace

bool IsModelCase(const CaseRecord& c) {
  return c.op_types.size() > 1 && c.name.find("_expanded") == std::string::npos;
}

bool IsModelSuite(const RunRecord& run, const std::string& suite) {
  size_t cases = 0, models = 0;
  for (const CaseRecord& c : run.cases) {
    if (c.suite != suite) continue;
    ++cases;
    if (IsModelCase(c)) ++models;
  }
  return 2 * models > cases;
}

bool IsModelRun(const RunRecord& run) {
  std::map<std::string, std::pair<size_t, size_t>> per_suite;  // suite -> (cases, models)
  for (const CaseRecord& c : run.cases) {
    auto& [cases, models] = per_suite[c.suite];
    ++cases;
    if (IsModelCase(c)) ++models;
  }
  for (const auto& [suite, counts] : per_suite) {
    if (2 * counts.second <= counts.first) return false;
  }
  return !per_suite.empty();
}

std::string DescribeMetric(const MetricRecord& m) {
  return m.metric + " " + FormatNumber(m.value) + " (" + (m.at_least ? ">= " : "<= ") +
         FormatNumber(m.threshold) + (m.passed ? ", margin " : ", FAILS by ") +
         FormatNumber(m.passed ? m.margin : -m.margin) + ")";
}

std::string DescribeOutputMargin(const OutputComparison& o) {
  if (!o.error.empty()) return o.error;
  if (o.metrics.empty()) return DescribeElementwiseMargin(o);
  std::vector<std::string> metrics;
  for (const MetricRecord& m : o.metrics) metrics.push_back(DescribeMetric(m));
  return JoinStrings(metrics, "; ");
}

std::optional<double> OutputToleranceShare(const OutputComparison& o) {
  if (!o.error.empty() || !o.metrics.empty()) return std::nullopt;
  if (o.min_passing_atol > 0.0 || o.min_passing_rtol > 0.0) {
    return Share({{o.min_passing_atol, o.atol}, {o.min_passing_rtol, o.rtol}}, false);
  }
  return Share({{o.max_abs_error, o.atol}, {o.max_rel_error, o.rtol}}, true);
}

std::vector<std::string> DescribeOutputMargins(const CaseRecord& c) {
  std::vector<std::string> lines;
  for (const OutputComparison& o : c.outputs) {
    lines.push_back(o.output_name + " set " + std::to_string(o.set_index) + ": " +
                    DescribeOutputMargin(o));
  }
  return lines;
}

std::string DescribeDivergence(const DivergenceRecord& d) {
  std::string text = "node " + d.node + " (" + d.op + ")";
  if (!d.value.empty()) text += " computing " + d.value;
  return text + ", set " + std::to_string(d.set_index) + ": max abs err " +
         FormatNumber(d.max_abs_error) + ", max rel err " + FormatNumber(d.max_rel_error);
}

}  // namespace onnxgate
