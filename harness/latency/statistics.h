// Statistics of latency samples: percentiles, summaries with the coefficient of variation, the
// two-sided Mann-Whitney U test that decides whether two sets of samples differ, and the sign
// test for paired samples.
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
  double u_x = 0.0;      // U of the first sample: pairs (x, y) with x > y, ties counting one half
  double u_y = 0.0;      // n_x * n_y - u_x
  double z = 0.0;        // of the normal approximation (0 when the exact distribution was used)
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

struct SignTestResult {
  size_t greater = 0;    // pairs with x[i] > y[i]
  size_t less = 0;       // pairs with x[i] < y[i]
  size_t ties = 0;       // pairs with x[i] == y[i], left out of the test
  double p_value = 1.0;  // two-sided
};

// The exact two-sided sign test of paired samples: under "neither side of a pair tends to be
// larger", each untied pair is larger on x's side with probability 1/2, so the count of such
// pairs is Binomial(untied pairs, 1/2). It asks nothing of the shape of the distributions, only
// that the pairs are independent. x and y have the same size.
SignTestResult SignTest(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace onnxgate
