// Parsing and lookup of the per-model latency thresholds.
#include "harness/latency/thresholds.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/json_reader.h"

namespace onnxgate {

namespace {

Status CheckThreshold(double t, const std::string& where) {
  if (!(t > 0.0 && t <= 10.0)) {
    return InvalidArgument(where + ": a threshold is a ratio in (0, 10] (0.1 = 10%), got " +
                           std::to_string(t));
  }
  return OkStatus();
}

}  // namespace

double LatencyThresholds::For(const std::string& model, const std::string& ep) const {
  for (const ThresholdRule& r : rules) {
    if (!r.ep.empty() && r.ep != ep) continue;
    if (::fnmatch(r.pattern.c_str(), model.c_str(), 0) == 0) return r.threshold;
  }
  return default_threshold;
}

StatusOr<LatencyThresholds> ParseLatencyThresholds(const std::string& text,
                                                   const std::string& source) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc,
                            JsonDocument::Parse(text, source, JsonNull::kIsAbsent));
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject o, doc.RootObject());
  ONNXGATE_ASSIGN_OR_RETURN(JsonValue format, o.Get("format"));
  if (format.raw() != kThresholdsFormat) {
    return format.TypeError("\"" + std::string(kThresholdsFormat) + "\"");
  }
  LatencyThresholds t;
  ONNXGATE_RETURN_IF_ERROR(o.Read("default_threshold", &t.default_threshold));
  ONNXGATE_RETURN_IF_ERROR(CheckThreshold(t.default_threshold, source + ": default_threshold"));
  ONNXGATE_RETURN_IF_ERROR(o.Read("alpha", &t.alpha));
  if (!(t.alpha > 0.0 && t.alpha < 0.5)) {
    return InvalidArgument(source + ": alpha: expected a significance level in (0, 0.5), got " +
                           std::to_string(t.alpha));
  }
  ONNXGATE_RETURN_IF_ERROR(o.ForEachObject("models", [&](const JsonObject& r) -> Status {
    ThresholdRule rule;
    ONNXGATE_RETURN_IF_ERROR(r.Require("pattern", &rule.pattern));
    ONNXGATE_RETURN_IF_ERROR(r.Read("ep", &rule.ep));
    ONNXGATE_RETURN_IF_ERROR(r.Require("threshold", &rule.threshold));
    ONNXGATE_RETURN_IF_ERROR(
        CheckThreshold(rule.threshold, source + ": " + r.value().path() + ".threshold"));
    ONNXGATE_RETURN_IF_ERROR(r.Read("reason", &rule.reason));
    t.rules.push_back(std::move(rule));
    return OkStatus();
  }));
  return t;
}

StatusOr<LatencyThresholds> LoadLatencyThresholds(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return LatencyThresholds{};
  ONNXGATE_ASSIGN_OR_RETURN(std::string text,
                            ReadRegularFile(path, kMaxJsonFileBytes, "thresholds file"));
  return ParseLatencyThresholds(text, path);
}

}  // namespace onnxgate
