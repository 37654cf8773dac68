// HTML run report: one self-contained page (inline CSS and SVG, no script, no external
// resources) with the run's facts and totals, the failing cases with their comparisons and
// reproducers, the op x op version x EP conformance matrix as a coloured grid, the operator
// coverage and the latency results; a run of models (reports/model_summary.h) opens on each
// model's margins to its tolerances and its failing nodes, with the matrix and coverage folded
// at the end. It fits a 1280 px window: tables wrap their long names and op lists rather than
// scroll the page sideways (ci/check-html-layout.sh checks it in Chromium).
#pragma once

#include <cstddef>
#include <string>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct HtmlOptions {
  std::string title;  // empty: by command (RunTitle: "onnxgate gate" or "onnxgate run")
  size_t max_failing_cases = 500;  // rows of the failing-case table before "... and N more"
  size_t max_other_cases = 2000;   // rows of the UNSUPPORTED/XFAIL/SKIP table
  size_t max_tooltip_cases = 15;   // failing case names in a matrix cell's tooltip
  size_t max_message_chars = 2000;
  size_t max_chart_bars = 100;  // latency records in the bar chart
};

// Every text from the records is made valid UTF-8, stripped of control characters and escaped,
// so case names and messages cannot inject markup. The page is also well-formed XML.
std::string RenderHtml(const RunRecord& run, const HtmlOptions& options = {});

// Renders and writes atomically to `path`.
Status WriteHtml(const RunRecord& run, const std::string& path, const HtmlOptions& options = {});

}  // namespace onnxgate
