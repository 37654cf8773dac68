// Latency thresholds: how far the median may move before it counts, by model name glob, and the
// significance level of the Mann-Whitney test. Read from golden/baselines/thresholds.json.
#pragma once

#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr char kThresholdsFormat[] = "onnxgate-latency-thresholds";
inline constexpr double kDefaultLatencyThreshold = 0.10;
inline constexpr double kDefaultLatencyAlpha = 0.01;

struct ThresholdRule {
  std::string pattern;  // fnmatch glob on the model name, e.g. "mobilenet*"
  std::string ep;       // empty: every EP
  double threshold = kDefaultLatencyThreshold;
  std::string reason;
};

struct LatencyThresholds {
  double default_threshold = kDefaultLatencyThreshold;
  double alpha = kDefaultLatencyAlpha;
  std::vector<ThresholdRule> rules;  // the first matching rule wins

  // The threshold (a ratio: 0.1 = 10%) for `model` on `ep`.
  double For(const std::string& model, const std::string& ep) const;
};

// InvalidArgument naming the field for a malformed file; thresholds must lie in (0, 10] and
// alpha in (0, 0.5).
StatusOr<LatencyThresholds> ParseLatencyThresholds(const std::string& text,
                                                   const std::string& source);
// The defaults when `path` does not exist; errors for a file that exists but is wrong.
StatusOr<LatencyThresholds> LoadLatencyThresholds(const std::string& path);

}  // namespace onnxgate
