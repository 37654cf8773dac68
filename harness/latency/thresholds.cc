// Parsing and lookup of the per-model latency thresholds.
#include "harness/latency/thresholds.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include "harness/latency/json_fields.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {

using latency_json::Json;
using latency_json::Object;

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
  ONNXGATE_ASSIGN_OR_RETURN(Json doc, latency_json::Parse(text, source));
  ONNXGATE_ASSIGN_OR_RETURN(Object o, Object::Of(doc, source, ""));
  std::string format;
  ONNXGATE_RETURN_IF_ERROR(o.String("format", &format));
  if (format != kThresholdsFormat) {
    return InvalidArgument(source + ": format: expected \"" + std::string(kThresholdsFormat) +
                           "\", got \"" + format + "\"");
  }
  LatencyThresholds t;
  ONNXGATE_RETURN_IF_ERROR(o.Number("default_threshold", &t.default_threshold, false));
  ONNXGATE_RETURN_IF_ERROR(CheckThreshold(t.default_threshold, source + ": default_threshold"));
  ONNXGATE_RETURN_IF_ERROR(o.Number("alpha", &t.alpha, false));
  if (!(t.alpha > 0.0 && t.alpha < 0.5)) {
    return InvalidArgument(source + ": alpha: expected a significance level in (0, 0.5), got " +
                           std::to_string(t.alpha));
  }
  if (doc.contains("models")) {
    ONNXGATE_RETURN_IF_ERROR(
        o.Array("models", [&](const Json& e, const std::string& path) -> Status {
          ONNXGATE_ASSIGN_OR_RETURN(Object r, Object::Of(e, source, path));
          ThresholdRule rule;
          ONNXGATE_RETURN_IF_ERROR(r.String("pattern", &rule.pattern));
          ONNXGATE_RETURN_IF_ERROR(r.String("ep", &rule.ep, false));
          ONNXGATE_RETURN_IF_ERROR(r.Number("threshold", &rule.threshold));
          ONNXGATE_RETURN_IF_ERROR(
              CheckThreshold(rule.threshold, source + ": " + path + ".threshold"));
          ONNXGATE_RETURN_IF_ERROR(r.String("reason", &rule.reason, false));
          t.rules.push_back(std::move(rule));
          return OkStatus();
        }));
  }
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
