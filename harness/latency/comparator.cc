// The latency verdict: threshold on the median change AND Mann-Whitney significance AND the
// fast end moved too; against a stored baseline on pooled samples, against a runtime measured
// beside it round by round.
#include "harness/latency/comparator.h"

#include <cmath>
#include <cstdio>
#include <optional>

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

namespace {

// What a verdict is judged on, however the samples were paired.
struct Evidence {
  SampleSummary now, base;  // of the pooled samples
  double change = 0.0;       // relative change of the median
  double fast_change = 0.0;  // relative change of the 10th percentile
  bool fast_end_known = false;
  MannWhitneyResult test;
  std::string change_text;  // how `change` was found, for the message
  std::string test_name;    // "Mann-Whitney", or the stratified form
};

double Relative(double now, double base) { return (now - base) / base; }

LatencyComparison Judge(const Evidence& e, double threshold, double alpha,
                        const std::string& reference) {
  LatencyComparison c;
  c.threshold = threshold;
  c.alpha = alpha;
  c.baseline_median_ms = e.base.median;
  c.p_value = e.test.p_value;
  c.change_ratio = e.change;
  const bool moved = std::fabs(e.change) > threshold;
  const bool significant = e.test.p_value < alpha;
  const std::string medians = "median " + Ms(e.now.median) + " vs " + reference + " " +
                              Ms(e.base.median) + " (" + SignedPercent(e.change) +
                              e.change_text + ", threshold " + Percent(threshold) + ")";
  const std::string test_text = e.test_name + " p=" + P(e.test.p_value) +
                                (significant ? " < " : " >= ") + P(alpha) + " (n=" +
                                std::to_string(e.now.n) + " vs " + std::to_string(e.base.n) + ")";
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
    const bool fast_moved =
        e.change > 0 ? e.fast_change > threshold : e.fast_change < -threshold;
    if (!fast_moved) {
      c.verdict = LatencyVerdict::kInconclusive;
      c.message = medians + " and " + test_text + ", but the fast end did not move as far (" +
                  fast_text + ", " + SignedPercent(e.fast_change) + e.change_text +
                  "): spells of other work on the machine, or a change in only some runs; "
                  "rerun on a quieter machine";
      return c;
    }
  }
  c.verdict = e.change > 0 ? LatencyVerdict::kRegression : LatencyVerdict::kImprovement;
  c.message = medians + (e.change > 0 ? ": slower" : ": faster") + ", " + test_text + ", and " +
              fast_text;
  return c;
}

// The median of the per-round ratios of `statistic`, minus 1; nullopt where a reference round's
// statistic is not positive.
template <typename Statistic>
std::optional<double> MedianRoundChange(const std::vector<std::vector<double>>& now,
                                        const std::vector<std::vector<double>>& base,
                                        Statistic statistic) {
  std::vector<double> ratios;
  for (size_t k = 0; k < now.size(); ++k) {
    const double b = statistic(Summarize(base[k]));
    if (!(b > 0.0)) return std::nullopt;
    ratios.push_back(statistic(Summarize(now[k])) / b);
  }
  return Percentile(ratios, 0.5) - 1.0;
}

std::vector<double> Pooled(const std::vector<std::vector<double>>& rounds) {
  std::vector<double> all;
  for (const auto& r : rounds) all.insert(all.end(), r.begin(), r.end());
  return all;
}

}  // namespace

LatencyComparison CompareLatency(const std::vector<double>& current,
                                 const std::vector<double>& baseline, double threshold,
                                 double alpha, const std::string& reference) {
  ONNXGATE_CHECK(!current.empty() && !baseline.empty());
  Evidence e;
  e.now = Summarize(current);
  e.base = Summarize(baseline);
  e.test = MannWhitneyU(current, baseline);
  e.test_name = "Mann-Whitney";
  if (e.base.median <= 0.0) {
    LatencyComparison c = NoBaseline("", threshold, alpha);
    c.verdict = LatencyVerdict::kInconclusive;
    c.baseline_median_ms = e.base.median;
    c.p_value = e.test.p_value;
    c.message = "the " + reference + " median is " + Ms(e.base.median) +
                ", so no relative change exists";
    return c;
  }
  e.change = Relative(e.now.median, e.base.median);
  e.fast_end_known = e.base.p10 > 0.0;
  if (e.fast_end_known) e.fast_change = Relative(e.now.p10, e.base.p10);
  return Judge(e, threshold, alpha, reference);
}

LatencyComparison CompareLatencyInRounds(const std::vector<std::vector<double>>& current,
                                         const std::vector<std::vector<double>>& reference_rounds,
                                         double threshold, double alpha,
                                         const std::string& reference) {
  ONNXGATE_CHECK(!current.empty() && current.size() == reference_rounds.size());
  if (current.size() == 1) {
    return CompareLatency(current[0], reference_rounds[0], threshold, alpha, reference);
  }
  const std::optional<double> change = MedianRoundChange(
      current, reference_rounds, [](const SampleSummary& s) { return s.median; });
  if (!change) {
    LatencyComparison c = NoBaseline("", threshold, alpha);
    c.verdict = LatencyVerdict::kInconclusive;
    c.message = "a round's " + reference + " median is not positive, so no relative change exists";
    return c;
  }
  Evidence e;
  e.now = Summarize(Pooled(current));
  e.base = Summarize(Pooled(reference_rounds));
  e.change = *change;
  const std::optional<double> fast = MedianRoundChange(
      current, reference_rounds, [](const SampleSummary& s) { return s.p10; });
  e.fast_end_known = fast.has_value();
  if (fast) e.fast_change = *fast;
  e.change_text = " as the median of " + std::to_string(current.size()) + " rounds' ratios";
  e.test = StratifiedMannWhitneyU(current, reference_rounds);
  e.test_name = "Mann-Whitney within rounds";
  return Judge(e, threshold, alpha, reference);
}

}  // namespace onnxgate
