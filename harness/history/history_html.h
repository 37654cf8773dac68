// `onnxgate history html`: one self-contained HTML page of the results history, readable at
// 1280 px: a table of the series (points, latest value, change points, drift), then a chart per
// series as inline SVG (a point per run in run order, each with its commit and value on hover,
// the detected steps marked with the segment means on both sides). No script, no external
// resource.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "harness/history/history_series.h"

namespace onnxgate {

struct HistoryHtmlOptions {
  std::string title = "onnxgate history";
  std::string database;  // as the store names it, shown in the header
  // A gate stores a margin series per case: the page charts those NotableMarginSeries picks.
  size_t max_margin_charts = 40;
};

std::string RenderHistoryHtml(const HistorySeries& series, const HistoryHtmlOptions& options);

// The margin series worth showing, in the order a page or table shows them: those with a
// change point or a drift, then those within their tolerance (latest margin at most 1) by latest
// margin, largest first, then the failing ones the same way; at most `max` of them.
std::vector<const MarginSeries*> NotableMarginSeries(const HistorySeries& series, size_t max);

}  // namespace onnxgate
