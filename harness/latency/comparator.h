// The latency comparator: a verdict for one model x EP x thread count from its samples and the
// baseline's. A move counts only when the median changed by more than the threshold AND the
// two-sided Mann-Whitney U test rejects equality at alpha AND the fast end (the 10th
// percentile) moved past the threshold the same way. A big move that fails the test or leaves
// the fast end in place is "inconclusive" (too noisy to decide), never an alert: on a shared
// machine other work only ever adds time, in spells that can slow a whole measurement down, so
// a runtime that really got slower is slower in its fastest runs too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/records.h"

namespace onnxgate {

struct LatencyComparison {
  LatencyVerdict verdict = LatencyVerdict::kNoBaseline;
  std::optional<double> baseline_median_ms;
  std::optional<double> change_ratio;           // (median - baseline median) / baseline median
  std::optional<double> fast_end_change_ratio;  // the same for the 10th percentiles
  std::optional<double> p_value;
  double threshold = 0.0;
  double alpha = 0.0;
  std::string message;  // one line saying why
};

// `current` and `baseline` are per-repetition samples in ms (both non-empty). `reference` is what
// the messages call the baseline: "baseline", or the runtime/EP measured beside it (bench
// --against).
LatencyComparison CompareLatency(const std::vector<double>& current,
                                 const std::vector<double>& baseline, double threshold,
                                 double alpha, const std::string& reference = "baseline");

// The same verdict for two runtimes measured side by side (bench --against): current[i] and
// paired[i] were measured one right after the other (MeasurePair), both the same size and not
// empty. The machine's speed drifts over seconds, so each sample is compared only with its
// pair: the change is the median of the ratios current[i] / paired[i], and the test is the sign
// test of the pairs. There is no fast-end rule (pairing is what guards against spells); the
// messages give both sides' medians beside the change.
LatencyComparison ComparePaired(const std::vector<double>& current,
                                const std::vector<double>& paired, double threshold, double alpha,
                                const std::string& reference);

// Why a verdict cannot be trusted, for LatencyRecord::noise: `cv` (this measurement's) or
// `reference_cv` (the baseline's, or the reference runtime's) exceeds `threshold`, so the
// repetitions scatter more than the change that counts. Empty when both are within it.
// `reference` names the other side as the messages do.
std::string NoiseReason(double cv, double reference_cv, double threshold,
                        const std::string& reference = "baseline");

// The verdict when there is nothing to compare with; `why` says so ("no baseline entry for ...").
LatencyComparison NoBaseline(std::string why, double threshold, double alpha);

}  // namespace onnxgate
