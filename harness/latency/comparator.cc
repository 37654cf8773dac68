// The latency verdict: threshold on the median change AND significance AND the fast end moved
// too; against a stored baseline with Mann-Whitney, against a runtime measured beside it pair by
// pair with the sign test.
#include "harness/latency/comparator.h"

#include <cmath>
#include <cstdio>

#include "harness/latency/statistics.h"
#include "runtime/base/check.h"

namespace onnxgate {

namespace {

std::string Format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string Percent(double ratio) { return Format("%.1f%%", ratio * 100.0); }
std::string SignedPercent(double ratio) { return Format("%+.1f%%", ratio * 100.0); }
std::string Ms(double ms) { return Format("%.4g ms", ms); }
std::string P(double p) { return Format("%.2g", p); }

}  // namespace

std::string NoiseReason(double cv, double reference_cv, double threshold,
                        const std::string& reference) {
  if (!(cv > threshold) && !(reference_cv > threshold)) return "";
  return "cv " + Percent(cv) + " now and " + Percent(reference_cv) + " in the " + reference +
         " against a threshold of " + Percent(threshold) +
         ": the repetitions scatter more than the change that counts, so this verdict is "
         "unreliable; rerun on a quieter machine or with more rounds";
}

LatencyComparison NoBaseline(std::string why, double threshold, double alpha) {
  LatencyComparison c;
  c.verdict = LatencyVerdict::kNoBaseline;
  c.threshold = threshold;
  c.alpha = alpha;
  c.message = std::move(why);
  return c;
}

namespace {

// What a verdict is judged on, however the samples were paired.
struct Evidence {
  SampleSummary now, base;   // of all samples of each side
  double change = 0.0;       // relative change of the median
  double fast_change = 0.0;  // relative change of the 10th percentile
  bool fast_end_known = false;
  double p_value = 1.0;
  std::string change_text;  // how `change` was found, where it is not the medians' ratio
  std::string test_name;    // "Mann-Whitney", "sign test"
  std::string test_counts;  // "n=9 vs 9"
};

double Relative(double now, double base) { return (now - base) / base; }

LatencyComparison Judge(const Evidence& e, double threshold, double alpha,
                        const std::string& reference) {
  LatencyComparison c;
  c.threshold = threshold;
  c.alpha = alpha;
  c.baseline_median_ms = e.base.median;
  c.p_value = e.p_value;
  c.change_ratio = e.change;
  const bool moved = std::fabs(e.change) > threshold;
  const bool significant = e.p_value < alpha;
  const std::string medians = "median " + Ms(e.now.median) + " vs " + reference + " " +
                              Ms(e.base.median) + " (" + SignedPercent(e.change) + e.change_text +
                              ", threshold " + Percent(threshold) + ")";
  const std::string test_text = e.test_name + " p=" + P(e.p_value) +
                                (significant ? " < " : " >= ") + P(alpha) + " (" + e.test_counts +
                                ")";
  if (!moved) {
    c.verdict = LatencyVerdict::kUnchanged;
    c.message = medians + ": within the threshold";
    if (significant) c.message += " (the shift is real but small: " + test_text + ")";
    return c;
  }
  if (!significant) {
    c.verdict = LatencyVerdict::kInconclusive;
    c.message = medians + ", but the samples do not differ significantly (" + test_text +
                "): too noisy to decide (cv " + Percent(e.now.cv) + " now, " + Percent(e.base.cv) +
                " in the " + reference + "); rerun on a quieter machine or with more repetitions";
    return c;
  }
  const std::string fast_text = "10th percentile " + Ms(e.now.p10) + " vs " + Ms(e.base.p10);
  if (e.fast_end_known) {
    c.fast_end_change_ratio = e.fast_change;
    const bool fast_moved = e.change > 0 ? e.fast_change > threshold : e.fast_change < -threshold;
    if (!fast_moved) {
      c.verdict = LatencyVerdict::kInconclusive;
      c.message = medians + " and " + test_text + ", but the fast end did not move as far (" +
                  fast_text + ", " + SignedPercent(e.fast_change) +
                  "): spells of other work on the machine, or a change in only some runs; "
                  "rerun on a quieter machine";
      return c;
    }
  }
  c.verdict = e.change > 0 ? LatencyVerdict::kRegression : LatencyVerdict::kImprovement;
  c.message =
      medians + (e.change > 0 ? ": slower" : ": faster") + ", " + test_text + ", and " + fast_text;
  return c;
}

// The verdict where the reference's median is not positive.
LatencyComparison NoRelativeChange(const Evidence& e, double threshold, double alpha,
                                   const std::string& reference) {
  LatencyComparison c = NoBaseline(
      "the " + reference + " median is " + Ms(e.base.median) + ", so no relative change exists",
      threshold, alpha);
  c.verdict = LatencyVerdict::kInconclusive;
  c.baseline_median_ms = e.base.median;
  c.p_value = e.p_value;
  return c;
}

}  // namespace

LatencyComparison CompareLatency(const std::vector<double>& current,
                                 const std::vector<double>& baseline, double threshold,
                                 double alpha, const std::string& reference) {
  ONNXGATE_CHECK(!current.empty() && !baseline.empty());
  Evidence e;
  e.now = Summarize(current);
  e.base = Summarize(baseline);
  e.p_value = MannWhitneyU(current, baseline).p_value;
  e.test_name = "Mann-Whitney";
  e.test_counts = "n=" + std::to_string(e.now.n) + " vs " + std::to_string(e.base.n);
  if (e.base.median <= 0.0) return NoRelativeChange(e, threshold, alpha, reference);
  e.change = Relative(e.now.median, e.base.median);
  e.fast_end_known = e.base.p10 > 0.0;
  if (e.fast_end_known) e.fast_change = Relative(e.now.p10, e.base.p10);
  return Judge(e, threshold, alpha, reference);
}

LatencyComparison ComparePaired(const std::vector<double>& current,
                                const std::vector<double>& paired, double threshold, double alpha,
                                const std::string& reference) {
  ONNXGATE_CHECK(!current.empty() && current.size() == paired.size());
  Evidence e;
  e.now = Summarize(current);
  e.base = Summarize(paired);
  const SignTestResult sign = SignTest(current, paired);
  e.p_value = sign.p_value;
  e.test_name = "sign test";
  e.test_counts = std::to_string(sign.greater) + " of " + std::to_string(sign.greater + sign.less) +
                  " untied pairs slower";
  std::vector<double> ratios;
  for (size_t i = 0; i < current.size(); ++i) {
    if (!(paired[i] > 0.0)) return NoRelativeChange(e, threshold, alpha, reference);
    ratios.push_back(current[i] / paired[i]);
  }
  e.change = Percentile(ratios, 0.5) - 1.0;
  e.change_text = " as the median of " + std::to_string(ratios.size()) + " paired ratios";
  // No fast-end rule: a spell of other work slows both samples of a pair, or one of them, and
  // the median ratio ignores the pairs it splits. The 10th percentiles of all samples, taken over
  // rounds seconds apart, would bring back the drift the pairs take out.
  return Judge(e, threshold, alpha, reference);
}

}  // namespace onnxgate
