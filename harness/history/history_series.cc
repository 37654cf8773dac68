// Grouping stored points into series, the searches over them and the recent regressions.
#include "harness/history/history_series.h"

#include <cstdio>
#include <map>

namespace onnxgate {

namespace {

std::string Format(const char* format, double a, double b, double change) {
  char buf[160];
  std::snprintf(buf, sizeof buf, format, a, b, change * 100.0);
  return buf;
}

template <typename Point>
HistoryRegression RegressionAt(const std::string& series, const std::vector<Stored<Point>>& points,
                               size_t index, std::string description) {
  HistoryRegression r;
  r.series = series;
  r.first_commit = points[index].context.commit;
  r.first_run_id = points[index].run_id;
  r.description = std::move(description);
  return r;
}

// Whether a change point is one of the last `last_runs` of `size` points.
bool IsRecent(const ChangePoint& change, size_t size, size_t last_runs) {
  return change.index + last_runs >= size;
}

}  // namespace

std::string CaseKeyLabel(const CaseKey& key) {
  return key.suite + "/" + key.case_name + " " + key.runtime + "/" + key.ep;
}

std::vector<LatencySeries> GroupLatencySeries(const std::vector<Stored<LatencyPoint>>& points,
                                              const SeriesSettings& settings) {
  std::map<LatencyKey, LatencySeries> by_key;
  for (const Stored<LatencyPoint>& p : points) {
    LatencySeries& s = by_key[p.point.key];
    s.key = p.point.key;
    s.points.push_back(p);
  }
  std::vector<LatencySeries> out;
  for (auto& [key, s] : by_key) {
    std::vector<double> values;
    for (const Stored<LatencyPoint>& p : s.points) values.push_back(p.point.median_ms);
    s.change_points = FindChangePoints(values, settings.change_points);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<MarginSeries> GroupMarginSeries(const std::vector<Stored<CasePoint>>& points,
                                            const SeriesSettings& settings) {
  std::map<CaseKey, MarginSeries> by_key;
  for (const Stored<CasePoint>& p : points) {
    if (!p.point.margin) continue;
    MarginSeries& s = by_key[p.point.key];
    s.key = p.point.key;
    s.points.push_back(p);
  }
  std::vector<MarginSeries> out;
  for (auto& [key, s] : by_key) {
    std::vector<double> values;
    for (const Stored<CasePoint>& p : s.points) values.push_back(*p.point.margin);
    s.change_points = FindChangePoints(values, settings.change_points);
    s.drift = FindMarginDrift(values, settings.drift);
    out.push_back(std::move(s));
  }
  return out;
}

StatusOr<HistorySeries> ReadHistorySeries(ResultsStore& store, const HistoryQuery& query,
                                          const SeriesSettings& settings) {
  HistorySeries series;
  ONNXGATE_ASSIGN_OR_RETURN(const std::vector<Stored<LatencyPoint>> latency,
                            store.ReadLatency(query));
  series.latency = GroupLatencySeries(latency, settings);
  ONNXGATE_ASSIGN_OR_RETURN(const std::vector<Stored<CasePoint>> cases, store.ReadCases(query));
  series.margins = GroupMarginSeries(cases, settings);
  return series;
}

std::vector<HistoryRegression> FindRecentRegressions(const HistorySeries& series,
                                                     size_t last_runs) {
  std::vector<HistoryRegression> out;
  for (const LatencySeries& s : series.latency) {
    for (const ChangePoint& c : s.change_points) {
      if (c.relative_change <= 0 || !IsRecent(c, s.points.size(), last_runs)) continue;
      out.push_back(RegressionAt(LatencyKeyLabel(s.key), s.points, c.index,
                                 Format("median %.4g ms -> %.4g ms (%+.1f%%)", c.mean_before,
                                        c.mean_after, c.relative_change)));
    }
  }
  for (const MarginSeries& s : series.margins) {
    for (const ChangePoint& c : s.change_points) {
      if (c.relative_change <= 0 || !IsRecent(c, s.points.size(), last_runs)) continue;
      out.push_back(RegressionAt(CaseKeyLabel(s.key), s.points, c.index,
                                 Format("error margin %.3g -> %.3g of the tolerance (%+.1f%%)",
                                        c.mean_before, c.mean_after, c.relative_change)));
    }
    if (s.drift && s.drift->index < s.points.size()) {
      out.push_back(RegressionAt(CaseKeyLabel(s.key), s.points, s.drift->index,
                                 "error margin drifting toward the tolerance: " + s.drift->reason));
    }
  }
  return out;
}

}  // namespace onnxgate
