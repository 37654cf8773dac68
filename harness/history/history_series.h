// The results history as series: the stored points grouped per LatencyKey (median latency per
// run) and per CaseKey (error margin per run), each searched for change points
// (change_points.h) and, for margins, for a drift toward the tolerance (margin_drift.h); and
// `history check`: the change points of the last runs that are regressions, each named by the
// first commit after it.
//
// Contract: series and their points keep run order; series are sorted by key. A point without
// a margin (nothing compared under rtol/atol) is not part of its case's margin series.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/history/change_points.h"
#include "harness/history/history_records.h"
#include "harness/history/margin_drift.h"
#include "harness/history/results_store.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct SeriesSettings {
  ChangePointSettings change_points;
  MarginDriftSettings drift;
};

struct LatencySeries {
  LatencyKey key;
  std::vector<Stored<LatencyPoint>> points;
  std::vector<ChangePoint> change_points;  // over the points' median_ms
};

struct MarginSeries {
  CaseKey key;
  std::vector<Stored<CasePoint>> points;   // each with a margin
  std::vector<ChangePoint> change_points;  // over the margins
  std::optional<MarginDrift> drift;
};

struct HistorySeries {
  std::vector<LatencySeries> latency;
  std::vector<MarginSeries> margins;
};

// "suite/case runtime/ep".
std::string CaseKeyLabel(const CaseKey& key);

// The points grouped into series and searched.
std::vector<LatencySeries> GroupLatencySeries(const std::vector<Stored<LatencyPoint>>& points,
                                              const SeriesSettings& settings);
std::vector<MarginSeries> GroupMarginSeries(const std::vector<Stored<CasePoint>>& points,
                                            const SeriesSettings& settings);

// Reads the points `query` selects from `store` and groups them. Errors are the store's.
StatusOr<HistorySeries> ReadHistorySeries(ResultsStore& store, const HistoryQuery& query,
                                          const SeriesSettings& settings);

// A regression among the last runs of a series: a latency step up, a margin step up, or a
// margin drifting toward its tolerance.
struct HistoryRegression {
  std::string series;        // LatencyKeyLabel or CaseKeyLabel
  std::string first_commit;  // of the first point after the change
  int64_t first_run_id = 0;
  std::string description;  // "median 1.00 ms -> 1.06 ms (+6.0%)"
};

// The regressions whose change point is one of each series' last `last_runs` points, and every
// margin drift (it describes the series up to its latest point; named by the first commit of
// its step or trend window); latency first, in series order.
std::vector<HistoryRegression> FindRecentRegressions(const HistorySeries& series, size_t last_runs);

}  // namespace onnxgate
