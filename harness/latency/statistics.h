// Statistics of latency samples: percentiles, summaries with the coefficient of variation, and
// the two-sided Mann-Whitney U test that decides whether two sets of samples differ.
#pragma once

#include <cstddef>
#include <vector>

namespace onnxgate {

// The q-quantile (q in [0, 1]) by linear interpolation between the closest ranks, the
// definition numpy and R (type 7) use by default. `samples` need not be sorted; not empty.
double Percentile(std::vector<double> samples, double q);

struct SampleSummary {
  size_t n = 0;
  double min = 0.0;
  double max = 0.0;
  double p10 = 0.0;  // the fast end: what a run takes when nothing else slows it
  double median = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double mean = 0.0;
  double stddev = 0.0;  // sample standard deviation (n - 1); 0 for one sample
  double cv = 0.0;      // stddev / mean; 0 when the mean is 0
};

// Not empty.
SampleSummary Summarize(const std::vector<double>& samples);

struct MannWhitneyResult {
  // U of the first sample: pairs (x, y) with x > y, ties counting one half (summed over strata
  // in the stratified test)
  double u_x = 0.0;
  double u_y = 0.0;  // n_x * n_y - u_x
  double z = 0.0;    // of the normal approximation (0 when the exact distribution was used)
  double p_value = 1.0;  // two-sided
  bool exact = false;    // the exact distribution of U was used
  bool ties = false;
};

// Samples up to this size on both sides, without ties, get the exact distribution of U; larger
// or tied samples get the normal approximation with tie and continuity corrections.
inline constexpr size_t kMannWhitneyExactLimit = 50;

// Two-sided Mann-Whitney U test of "x and y come from the same distribution". Both samples must
// be non-empty.
MannWhitneyResult MannWhitneyU(const std::vector<double>& x, const std::vector<double>& y);

// The same question asked within strata (van Elteren's test): x[k] and y[k] are the samples of
// stratum k (a round of a side-by-side bench, where both sides ran one right after the other),
// compared only with each other, so that a difference between strata (the machine slower in one
// round than in the next) adds no evidence either way. Each stratum's U is weighted by
// 1 / (its sample count + 1); the weighted sum is judged by the normal approximation with tie
// corrections. One stratum is MannWhitneyU itself. x and y hold as many strata as each other,
// each non-empty on both sides.
MannWhitneyResult StratifiedMannWhitneyU(const std::vector<std::vector<double>>& x,
                                         const std::vector<std::vector<double>>& y);

}  // namespace onnxgate
