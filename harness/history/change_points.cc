// E-divisive means (Matteson & James 2014) with the distance exponent 1, as described in the
// header. The energy statistic of a split at m of a segment of N points, left side X (m points)
// and right side Y (n = N - m points), is
//   Q = m n / N * (2 / (m n) * sum |X_i - Y_j| - sum_{i<k} |X_i - X_k| / C(m, 2)
//                                              - sum_{j<k} |Y_j - Y_k| / C(n, 2)).
// The within-side sums of every prefix and every suffix come from one pass each way, adding the
// points one at a time to a Fenwick tree over the points' ranks (the count and sum of the values
// below and above the new one give its distances to all before it); the cross sum is the whole
// segment's within sum less both sides'. One scan of all splits is O(N log N), and a shuffle
// keeps the ranks, so each permutation costs one scan.
//
// Points that are not finite (NaN, +-inf) are skipped: the detector runs on the finite points
// and reports indices into the series as given. A change's relative size is taken against
// |mean_before|; where that mean is 0 it is taken against the larger |mean| of the two sides.
#include "harness/history/change_points.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <utility>

namespace onnxgate {
namespace {

// A point of one segment: its value (less the segment's minimum, so that equal values cancel
// exactly) and its rank among the segment's points.
struct RankedPoint {
  double value = 0.0;
  size_t rank = 0;
};

// Sums of |a - b| over the pairs of a set that grows one point at a time.
class PairDistanceSum {
 public:
  explicit PairDistanceSum(size_t ranks) : count_(ranks + 1), sum_(ranks + 1) {}

  void Clear() {
    std::fill(count_.begin(), count_.end(), 0);
    std::fill(sum_.begin(), sum_.end(), 0.0);
    total_count_ = 0;
    total_sum_ = 0.0;
    pairs_sum_ = 0.0;
  }

  // Adds a point; returns the sum over all pairs of the set, this point included.
  double Add(const RankedPoint& p) {
    size_t below_count = 0;
    double below_sum = 0.0;
    for (size_t i = p.rank; i > 0; i -= i & (~i + 1)) {
      below_count += count_[i];
      below_sum += sum_[i];
    }
    const size_t above_count = total_count_ - below_count;
    const double above_sum = total_sum_ - below_sum;
    pairs_sum_ += (p.value * below_count - below_sum) + (above_sum - p.value * above_count);
    for (size_t i = p.rank + 1; i < count_.size(); i += i & (~i + 1)) {
      count_[i] += 1;
      sum_[i] += p.value;
    }
    total_count_ += 1;
    total_sum_ += p.value;
    return pairs_sum_;
  }

 private:
  std::vector<size_t> count_;
  std::vector<double> sum_;
  size_t total_count_ = 0;
  double total_sum_ = 0.0;
  double pairs_sum_ = 0.0;
};

struct Split {
  size_t at = 0;  // points on the left
  double statistic = 0.0;
};

double PairCount(size_t k) { return k < 2 ? 0.0 : 0.5 * static_cast<double>(k) * (k - 1); }

double EnergyStatistic(size_t m, size_t n, double left_pairs, double right_pairs, double all) {
  const double cross = all - left_pairs - right_pairs;
  const double mn = static_cast<double>(m) * static_cast<double>(n);
  double e = 2.0 * cross / mn;
  if (m >= 2) e -= left_pairs / PairCount(m);
  if (n >= 2) e -= right_pairs / PairCount(n);
  return mn / static_cast<double>(m + n) * e;
}

// Finds the split of one segment with the largest energy statistic, each side at least
// `min_segment` points. Reuses its buffers across calls on segments of one size.
class SplitScanner {
 public:
  SplitScanner(size_t points, size_t min_segment)
      : forward_(points), backward_(points), prefix_pairs_(points + 1), min_segment_(min_segment) {}

  Split Best(const std::vector<RankedPoint>& points) {
    const size_t n = points.size();
    forward_.Clear();
    backward_.Clear();
    prefix_pairs_[0] = 0.0;
    for (size_t i = 0; i < n; ++i) prefix_pairs_[i + 1] = forward_.Add(points[i]);
    const double all = prefix_pairs_[n];
    Split best;
    // Suffixes from the right: after adding points[m..n), the right side of a split at m.
    for (size_t m = n; m-- > min_segment_;) {
      const double right_pairs = backward_.Add(points[m]);
      if (n - m < min_segment_) continue;
      const double q = EnergyStatistic(m, n - m, prefix_pairs_[m], right_pairs, all);
      if (q > best.statistic || best.at == 0) best = {m, q};
    }
    return best;
  }

 private:
  PairDistanceSum forward_;
  PairDistanceSum backward_;
  std::vector<double> prefix_pairs_;
  size_t min_segment_;
};

// An unbiased integer in [0, bound) from the generator (rejection of the short last block), so a
// shuffle is the same on every standard library.
uint64_t UniformBelow(std::mt19937_64& rng, uint64_t bound) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t draw = rng();
  while (draw >= limit) draw = rng();
  return draw % bound;
}

void Shuffle(std::vector<RankedPoint>& points, std::mt19937_64& rng) {
  for (size_t i = points.size(); i > 1; --i) std::swap(points[i - 1], points[UniformBelow(rng, i)]);
}

std::vector<RankedPoint> Rank(const std::vector<double>& values, size_t begin, size_t end) {
  std::vector<size_t> order(end - begin);
  std::iota(order.begin(), order.end(), begin);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return values[a] < values[b]; });
  const double floor = values[order.front()];
  std::vector<RankedPoint> points(end - begin);
  for (size_t r = 0; r < order.size(); ++r) {
    points[order[r] - begin] = {values[order[r]] - floor, r};
  }
  return points;
}

struct Candidate {
  size_t at = 0;  // into the finite values
  double p_value = 1.0;
};

// The best split of values[begin, end) and its permutation p-value. The test stops as soon as
// the p-value cannot reach `alpha`; a split that fails it carries a p-value above alpha.
std::optional<Candidate> TestSegment(const std::vector<double>& values, size_t begin, size_t end,
                                     const ChangePointSettings& settings, size_t min_segment,
                                     std::mt19937_64& rng) {
  std::vector<RankedPoint> points = Rank(values, begin, end);
  SplitScanner scanner(points.size(), min_segment);
  const Split observed = scanner.Best(points);
  if (!(observed.statistic > 0.0)) return std::nullopt;
  const double trials = static_cast<double>(settings.permutations) + 1.0;
  int at_least_as_large = 0;
  for (int i = 0; i < settings.permutations; ++i) {
    Shuffle(points, rng);
    if (scanner.Best(points).statistic >= observed.statistic) ++at_least_as_large;
    if ((at_least_as_large + 1) / trials > settings.alpha) return std::nullopt;
  }
  const double p = (at_least_as_large + 1) / trials;
  if (!(p <= settings.alpha)) return std::nullopt;
  return Candidate{begin + observed.at, p};
}

// Every significant split, found one at a time and each side searched again, in index order.
std::vector<Candidate> SignificantSplits(const std::vector<double>& values,
                                         const ChangePointSettings& settings, size_t min_segment) {
  std::mt19937_64 rng(settings.seed);
  std::vector<Candidate> found;
  std::vector<std::pair<size_t, size_t>> pending = {{0, values.size()}};
  while (!pending.empty()) {
    const auto [begin, end] = pending.back();
    pending.pop_back();
    if (end - begin < 2 * min_segment) continue;
    const std::optional<Candidate> split =
        TestSegment(values, begin, end, settings, min_segment, rng);
    if (!split) continue;
    found.push_back(*split);
    pending.push_back({split->at, end});
    pending.push_back({begin, split->at});
  }
  std::sort(found.begin(), found.end(),
            [](const Candidate& a, const Candidate& b) { return a.at < b.at; });
  return found;
}

double Mean(const std::vector<double>& values, size_t begin, size_t end) {
  double sum = 0.0;
  for (size_t i = begin; i < end; ++i) sum += values[i];
  return sum / static_cast<double>(end - begin);
}

double RelativeChange(double before, double after) {
  double scale = std::fabs(before);
  if (scale == 0.0) scale = std::fabs(after);
  return scale == 0.0 ? 0.0 : (after - before) / scale;
}

// The change points with the means of the segments between them.
std::vector<ChangePoint> Describe(const std::vector<double>& values,
                                  const std::vector<Candidate>& splits) {
  std::vector<ChangePoint> points;
  for (size_t k = 0; k < splits.size(); ++k) {
    const size_t begin = k == 0 ? 0 : splits[k - 1].at;
    const size_t end = k + 1 == splits.size() ? values.size() : splits[k + 1].at;
    ChangePoint cp;
    cp.index = splits[k].at;
    cp.mean_before = Mean(values, begin, splits[k].at);
    cp.mean_after = Mean(values, splits[k].at, end);
    cp.relative_change = RelativeChange(cp.mean_before, cp.mean_after);
    cp.p_value = splits[k].p_value;
    points.push_back(cp);
  }
  return points;
}

// Drops the smallest change below `min_relative_change` and describes the rest again (its two
// neighbouring segments are now one), until every change left is large enough.
std::vector<ChangePoint> DropSmallChanges(const std::vector<double>& values,
                                          std::vector<Candidate> splits,
                                          double min_relative_change) {
  while (true) {
    std::vector<ChangePoint> points = Describe(values, splits);
    size_t smallest = points.size();
    for (size_t k = 0; k < points.size(); ++k) {
      const double size = std::fabs(points[k].relative_change);
      if (size >= min_relative_change) continue;
      if (smallest == points.size() || size < std::fabs(points[smallest].relative_change)) {
        smallest = k;
      }
    }
    if (smallest == points.size()) return points;
    splits.erase(splits.begin() + static_cast<std::ptrdiff_t>(smallest));
  }
}

}  // namespace

std::vector<ChangePoint> FindChangePoints(const std::vector<double>& series,
                                          const ChangePointSettings& settings) {
  std::vector<double> finite;
  std::vector<size_t> original_index;
  for (size_t i = 0; i < series.size(); ++i) {
    if (!std::isfinite(series[i])) continue;
    finite.push_back(series[i]);
    original_index.push_back(i);
  }
  const size_t min_segment = std::max<size_t>(settings.min_segment, 1);
  if (finite.size() < 2 * min_segment || settings.permutations < 1) return {};
  std::vector<ChangePoint> points = DropSmallChanges(
      finite, SignificantSplits(finite, settings, min_segment), settings.min_relative_change);
  for (ChangePoint& cp : points) cp.index = original_index[cp.index];
  return points;
}

}  // namespace onnxgate
