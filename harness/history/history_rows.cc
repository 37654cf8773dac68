// The checks a history point passes before it is written, and the query's filters.
#include "harness/history/history_rows.h"

#include <fnmatch.h>

#include <cmath>

namespace onnxgate {
namespace {

Status CheckFinite(const std::string& where, const char* field, double value) {
  if (std::isfinite(value)) return OkStatus();
  return InvalidArgument(where + ": " + field + " is " + (std::isnan(value) ? "NaN" : "infinite") +
                         "; a history holds finite numbers only");
}

}  // namespace

Status ValidateLatencyPoint(const LatencyPoint& point, size_t index) {
  const std::string where =
      "latency point " + std::to_string(index + 1) + " (" + LatencyKeyLabel(point.key) + ")";
  ONNXGATE_RETURN_IF_ERROR(CheckFinite(where, "median_ms", point.median_ms));
  ONNXGATE_RETURN_IF_ERROR(CheckFinite(where, "min_ms", point.min_ms));
  ONNXGATE_RETURN_IF_ERROR(CheckFinite(where, "p90_ms", point.p90_ms));
  ONNXGATE_RETURN_IF_ERROR(CheckFinite(where, "mean_ms", point.mean_ms));
  ONNXGATE_RETURN_IF_ERROR(CheckFinite(where, "cv", point.cv));
  if (point.samples < 0) {
    return InvalidArgument(where + ": samples is negative (" + std::to_string(point.samples) + ")");
  }
  return OkStatus();
}

Status ValidateCasePoint(const CasePoint& point, size_t index) {
  if (point.margin && std::isnan(*point.margin)) {
    return InvalidArgument("case " + std::to_string(index + 1) + " (" + point.key.suite + "/" +
                           point.key.case_name + "): margin is NaN");
  }
  return OkStatus();
}

std::vector<std::string> QueryParameters(const HistoryQuery& query) {
  return {query.kind, query.branch, query.machine, query.runtime, query.ep};
}

bool MatchesModelGlob(const HistoryQuery& query, const std::string& name) {
  return query.model_glob.empty() || fnmatch(query.model_glob.c_str(), name.c_str(), 0) == 0;
}

}  // namespace onnxgate
