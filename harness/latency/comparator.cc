// The latency verdict: threshold on the median change AND Mann-Whitney significance AND the
// fast end moved too.
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

LatencyComparison NoBaseline(std::string why, double threshold, double alpha) {
  LatencyComparison c;
  c.verdict = LatencyVerdict::kNoBaseline;
  c.threshold = threshold;
  c.alpha = alpha;
  c.message = std::move(why);
  return c;
}

LatencyComparison CompareLatency(const std::vector<double>& current,
                                 const std::vector<double>& baseline, double threshold,
                                 double alpha, const std::string& reference) {
  ONNXGATE_CHECK(!current.empty() && !baseline.empty());
  const SampleSummary now = Summarize(current);
  const SampleSummary base = Summarize(baseline);
  const MannWhitneyResult test = MannWhitneyU(current, baseline);

  LatencyComparison c;
  c.threshold = threshold;
  c.alpha = alpha;
  c.baseline_median_ms = base.median;
  c.p_value = test.p_value;
  if (base.median <= 0.0) {
    c.verdict = LatencyVerdict::kInconclusive;
    c.message = "the " + reference + " median is " + Ms(base.median) +
                ", so no relative change exists";
    return c;
  }
  const double change = (now.median - base.median) / base.median;
  c.change_ratio = change;
  const bool moved = std::fabs(change) > threshold;
  const bool significant = test.p_value < alpha;
  const std::string medians = "median " + Ms(now.median) + " vs " + reference + " " +
                              Ms(base.median) + " (" + SignedPercent(change) + ", threshold " +
                              Percent(threshold) + ")";
  const std::string test_text = "Mann-Whitney p=" + P(test.p_value) +
                                (significant ? " < " : " >= ") + P(alpha) + " (n=" +
                                std::to_string(now.n) + " vs " + std::to_string(base.n) + ")";
  if (!moved) {
    c.verdict = LatencyVerdict::kUnchanged;
    c.message = medians + ": within the threshold";
    if (significant) c.message += " (the shift is real but small: " + test_text + ")";
    return c;
  }
  if (!significant) {
    c.verdict = LatencyVerdict::kInconclusive;
    c.message = medians + ", but the samples do not differ significantly (" + test_text +
                "): too noisy to decide (cv " + Percent(now.cv) + " now, " + Percent(base.cv) +
                " in the " + reference + "); rerun on a quieter machine or with more repetitions";
    return c;
  }
  const std::string fast_text = "10th percentile " + Ms(now.p10) + " vs " + Ms(base.p10);
  if (base.p10 > 0.0) {
    const double fast_change = (now.p10 - base.p10) / base.p10;
    c.fast_end_change_ratio = fast_change;
    const bool fast_moved = change > 0 ? fast_change > threshold : fast_change < -threshold;
    if (!fast_moved) {
      c.verdict = LatencyVerdict::kInconclusive;
      c.message = medians + " and " + test_text + ", but the fast end did not move as far (" +
                  fast_text + ", " + SignedPercent(fast_change) +
                  "): spells of other work on the machine, or a change in only some runs; "
                  "rerun on a quieter machine";
      return c;
    }
  }
  c.verdict = change > 0 ? LatencyVerdict::kRegression : LatencyVerdict::kImprovement;
  c.message = medians + (change > 0 ? ": slower" : ": faster") + ", " + test_text + ", and " +
              fast_text;
  return c;
}

}  // namespace onnxgate
