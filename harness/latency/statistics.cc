// Percentiles, summaries, the Mann-Whitney U test (exact for small untied samples, normal
// approximation with tie and continuity corrections otherwise) and the exact sign test.
#include "harness/latency/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "runtime/base/check.h"

namespace onnxgate {

namespace {

// Average ranks (1-based) of the pooled samples; ties share the mean of their ranks. Also
// returns sum(t^3 - t) over tie groups of size t, which the variance of U needs.
struct Ranking {
  std::vector<double> ranks;  // in the order of the pooled input
  double tie_term = 0.0;
};

Ranking RankPooled(const std::vector<double>& pooled) {
  std::vector<size_t> order(pooled.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pooled[a] < pooled[b]; });
  Ranking r;
  r.ranks.resize(pooled.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && pooled[order[j + 1]] == pooled[order[i]]) ++j;
    const double average = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2.0;
    for (size_t k = i; k <= j; ++k) r.ranks[order[k]] = average;
    const double t = static_cast<double>(j - i + 1);
    r.tie_term += t * t * t - t;
    i = j + 1;
  }
  return r;
}

// P(U = u) for u in 0..m*n when the m + n values are distinct and every ordering is equally
// likely. The largest value is from the first sample with probability m / (m + n), and then it
// beats all n values of the second; this recurrence in probabilities (not counts) neither
// overflows nor cancels.
std::vector<double> ExactUDistribution(size_t m, size_t n) {
  // prev[j][u]: distribution for sizes (i - 1, j); cur[j][u]: for (i, j).
  const size_t width = m * n + 1;
  std::vector<std::vector<double>> prev(n + 1, std::vector<double>(width, 0.0));
  for (size_t j = 0; j <= n; ++j) prev[j][0] = 1.0;  // sizes (0, j): U is 0
  for (size_t i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> cur(n + 1, std::vector<double>(width, 0.0));
    cur[0][0] = 1.0;  // sizes (i, 0)
    for (size_t j = 1; j <= n; ++j) {
      const double from_x = static_cast<double>(i) / static_cast<double>(i + j);
      const double from_y = 1.0 - from_x;
      for (size_t u = 0; u <= i * j; ++u) {
        double p = from_y * cur[j - 1][u];
        if (u >= j) p += from_x * prev[j][u - j];
        cur[j][u] = p;
      }
    }
    prev = std::move(cur);
  }
  return prev[n];
}

double StandardNormalTwoSided(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

}  // namespace

double Percentile(std::vector<double> samples, double q) {
  ONNXGATE_CHECK(!samples.empty() && q >= 0.0 && q <= 1.0);
  std::sort(samples.begin(), samples.end());
  const double position = q * static_cast<double>(samples.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, samples.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return samples[below] + fraction * (samples[above] - samples[below]);
}

SampleSummary Summarize(const std::vector<double>& samples) {
  ONNXGATE_CHECK(!samples.empty());
  SampleSummary s;
  s.n = samples.size();
  s.min = *std::min_element(samples.begin(), samples.end());
  s.max = *std::max_element(samples.begin(), samples.end());
  s.median = Percentile(samples, 0.5);
  s.p10 = Percentile(samples, 0.1);
  s.p90 = Percentile(samples, 0.9);
  s.p99 = Percentile(samples, 0.99);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  if (s.n > 1) {
    double squares = 0.0;
    for (double v : samples) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(s.n - 1));
  }
  s.cv = s.mean != 0.0 ? s.stddev / s.mean : 0.0;
  return s;
}

MannWhitneyResult MannWhitneyU(const std::vector<double>& x, const std::vector<double>& y) {
  ONNXGATE_CHECK(!x.empty() && !y.empty());
  const size_t m = x.size();
  const size_t n = y.size();
  std::vector<double> pooled(x);
  pooled.insert(pooled.end(), y.begin(), y.end());
  const Ranking ranking = RankPooled(pooled);
  double rank_sum_x = 0.0;
  for (size_t i = 0; i < m; ++i) rank_sum_x += ranking.ranks[i];

  MannWhitneyResult r;
  const double md = static_cast<double>(m);
  const double nd = static_cast<double>(n);
  r.u_x = rank_sum_x - md * (md + 1.0) / 2.0;
  r.u_y = md * nd - r.u_x;
  r.ties = ranking.tie_term > 0.0;

  if (!r.ties && m <= kMannWhitneyExactLimit && n <= kMannWhitneyExactLimit) {
    // Without ties U is an integer; the two-sided p doubles the smaller tail.
    const std::vector<double> dist = ExactUDistribution(m, n);
    const size_t u = static_cast<size_t>(std::llround(r.u_x));
    double lower = 0.0, upper = 0.0;
    for (size_t k = 0; k < dist.size(); ++k) {
      if (k <= u) lower += dist[k];
      if (k >= u) upper += dist[k];
    }
    r.exact = true;
    r.p_value = std::min(1.0, 2.0 * std::min(lower, upper));
    return r;
  }

  const double total = md + nd;
  const double variance =
      md * nd / 12.0 * ((total + 1.0) - ranking.tie_term / (total * (total - 1.0)));
  if (variance <= 0.0) {  // every value tied: nothing tells the samples apart
    r.p_value = 1.0;
    return r;
  }
  const double deviation = r.u_x - md * nd / 2.0;
  const double corrected = std::max(0.0, std::fabs(deviation) - 0.5);
  r.z = (deviation < 0 ? -corrected : corrected) / std::sqrt(variance);
  r.p_value = std::min(1.0, StandardNormalTwoSided(r.z));
  return r;
}

SignTestResult SignTest(const std::vector<double>& x, const std::vector<double>& y) {
  ONNXGATE_CHECK(x.size() == y.size());
  SignTestResult r;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] > y[i]) {
      ++r.greater;
    } else if (x[i] < y[i]) {
      ++r.less;
    } else {
      ++r.ties;
    }
  }
  const size_t n = r.greater + r.less;
  const size_t fewer = std::min(r.greater, r.less);
  // P(K <= fewer) for K ~ Binomial(n, 1/2), each term in logs so that no count overflows.
  double tail = 0.0;
  for (size_t k = 0; k <= fewer && n > 0; ++k) {
    const double nd = static_cast<double>(n), kd = static_cast<double>(k);
    tail += std::exp(std::lgamma(nd + 1.0) - std::lgamma(kd + 1.0) - std::lgamma(nd - kd + 1.0) -
                     nd * std::log(2.0));
  }
  r.p_value = n == 0 ? 1.0 : std::min(1.0, 2.0 * tail);
  return r;
}

}  // namespace onnxgate
