// Change points in a series of per-commit values (a model's median latency, a case's error
// margin): E-divisive means, one split at a time. The split that maximizes the energy statistic
// of the two sides is kept when a permutation test (the series shuffled with a fixed seed, so a
// run is repeatable) finds its statistic significant at `alpha`; then both sides are searched
// again. A step that no comparison of neighbouring runs would call a change is found because the
// statistic pools every point on each side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace onnxgate {

struct ChangePointSettings {
  double alpha = 0.01;     // significance of the permutation test
  int permutations = 199;  // shuffles per test
  size_t min_segment = 5;  // points on each side of a change, at least
  // A change smaller than this share of the mean before it is not reported, however
  // significant (a 0.3% step is real on a quiet machine and matters to nobody).
  double min_relative_change = 0.02;
  uint64_t seed = 20261129;
};

struct ChangePoint {
  size_t index = 0;              // the first point after the change
  double mean_before = 0.0;      // of the segment before it
  double mean_after = 0.0;       // of the segment after it
  double relative_change = 0.0;  // (after - before) / before
  double p_value = 1.0;
};

// In index order. Fewer than 2 * min_segment points: none.
std::vector<ChangePoint> FindChangePoints(const std::vector<double>& series,
                                          const ChangePointSettings& settings);

}  // namespace onnxgate
