#include "harness/history/margin_drift.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace onnxgate {
namespace {

struct Point {
  double x = 0.0;  // the margin's index in the series
  double y = 0.0;
};

std::string Format(const char* format, double a, double b = 0.0, double c = 0.0) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, format, a, b, c);
  return buffer;
}

double Median(std::vector<double> values) {
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(values.begin(),
                                          values.begin() + static_cast<std::ptrdiff_t>(mid)));
}

std::optional<MarginDrift> StepDrift(const std::vector<double>& margins,
                                     const MarginDriftSettings& settings) {
  const std::vector<ChangePoint> changes = FindChangePoints(margins, settings.change_points);
  if (changes.empty()) return std::nullopt;
  const ChangePoint& last = changes.back();
  if (!(last.mean_after - last.mean_before >= settings.min_rise) ||
      !(last.mean_after >= settings.step_level)) {
    return std::nullopt;
  }
  MarginDrift drift;
  drift.rule = MarginDrift::Rule::kStep;
  drift.index = last.index;
  drift.before = last.mean_before;
  drift.after = last.mean_after;
  drift.reason = Format("error margin stepped up from %.2f to %.2f of its tolerance",
                        last.mean_before, last.mean_after) +
                 " at commit " + std::to_string(last.index + 1) + " of " +
                 std::to_string(margins.size());
  return drift;
}

// Theil-Sen: the median of the pairwise slopes, then the median intercept.
std::pair<double, double> TheilSenLine(const std::vector<Point>& points) {
  std::vector<double> slopes;
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t j = i + 1; j < points.size(); ++j) {
      slopes.push_back((points[j].y - points[i].y) / (points[j].x - points[i].x));
    }
  }
  const double slope = Median(slopes);
  std::vector<double> intercepts;
  for (const Point& p : points) intercepts.push_back(p.y - slope * p.x);
  return {slope, Median(intercepts)};
}

std::optional<MarginDrift> TrendDrift(const std::vector<Point>& finite,
                                      const MarginDriftSettings& settings) {
  const size_t window = std::min(finite.size(), std::max<size_t>(settings.trend_window, 2));
  const std::vector<Point> recent(finite.end() - static_cast<std::ptrdiff_t>(window), finite.end());
  const auto [slope, intercept] = TheilSenLine(recent);
  const double start = intercept + slope * recent.front().x;
  const double end = intercept + slope * recent.back().x;
  if (!(slope > 0.0) || !(end - start >= settings.min_rise)) return std::nullopt;
  const double commits_to_limit = std::max(0.0, (1.0 - end) / slope);
  if (!(commits_to_limit <= settings.horizon)) return std::nullopt;
  MarginDrift drift;
  drift.rule = MarginDrift::Rule::kTrend;
  drift.index = static_cast<size_t>(recent.front().x);
  drift.before = start;
  drift.after = end;
  drift.slope = slope;
  drift.commits_to_limit = commits_to_limit;
  drift.reason = Format("error margin rose from %.2f to %.2f of its tolerance", start, end) +
                 " over the last " + std::to_string(window) + " commits (" +
                 Format("%+.4f per commit", slope) + "); " +
                 (end >= 1.0 ? std::string("it has reached the tolerance")
                             : Format("at this rate it reaches the tolerance in %.0f commits",
                                      std::ceil(commits_to_limit)));
  return drift;
}

}  // namespace

std::optional<MarginDrift> FindMarginDrift(const std::vector<double>& margins,
                                           const MarginDriftSettings& settings) {
  std::vector<Point> finite;
  for (size_t i = 0; i < margins.size(); ++i) {
    if (std::isfinite(margins[i])) finite.push_back({static_cast<double>(i), margins[i]});
  }
  if (finite.size() < std::max<size_t>(settings.min_points, 2)) return std::nullopt;
  if (std::optional<MarginDrift> step = StepDrift(margins, settings)) return step;
  return TrendDrift(finite, settings);
}

}  // namespace onnxgate
