// Numerical drift of a case's error margin over commits: the share of its tolerance the case's
// worst output used (1 = at the limit, history_records.h), flagged while it creeps toward 1 and
// before the case fails. Two rules, either flags:
//   - step: the last change point of the margins (change_points.h) goes up by at least `min_rise`
//     and the mean after it is at least `step_level`: one commit moved the case close to its limit;
//   - trend: a Theil-Sen line (the median of the slopes between every two points, robust to a
//     few outliers) through the last `trend_window` margins rises by at least `min_rise` over
//     them and reaches 1 within `horizon` commits after the last one (or already has).
//
// Contract:
// - Margins that are not finite (NaN: nothing compared) are skipped; indices refer to the
//   vector as given, one entry per commit in order.
// - Fewer than `min_points` finite margins: no verdict (std::nullopt), whatever they hold.
// - Deterministic: the change points use the settings' fixed seed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/history/change_points.h"

namespace onnxgate {

struct MarginDriftSettings {
  size_t min_points = 10;  // finite margins needed for any verdict
  // How far a margin must move up, a share of the tolerance: a step's means across the change, a
  // trend's line over its window.
  double min_rise = 0.1;
  // Step rule: the detector's settings, and how high the mean after an upward step must be.
  ChangePointSettings change_points;
  double step_level = 0.8;
  // Trend rule: the last `trend_window` finite margins; the line must rise by `min_rise` over
  // them and reach 1 within `horizon` commits after the last one.
  size_t trend_window = 20;
  double horizon = 20.0;
};

struct MarginDrift {
  enum class Rule { kStep, kTrend };
  Rule rule = Rule::kTrend;
  // step: the first margin after the change; trend: the first margin of the window.
  size_t index = 0;
  double before = 0.0;  // step: mean before the change; trend: the line at the window's start
  double after = 0.0;   // step: mean after the change; trend: the line at the last margin
  double slope = 0.0;   // trend: margin per commit; step: 0
  // trend: commits after the last margin until the line reaches 1 (0 when it has); step: 0
  double commits_to_limit = 0.0;
  std::string reason;  // one line for a report: what moved, from what to what, and when
};

// The drift of one case's margins, or std::nullopt when neither rule flags it.
std::optional<MarginDrift> FindMarginDrift(const std::vector<double>& margins,
                                           const MarginDriftSettings& settings);

}  // namespace onnxgate
