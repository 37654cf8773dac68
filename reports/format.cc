// Text pieces shared by the report writers.
#include "reports/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "runtime/onnx/domain.h"

namespace onnxgate {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::seconds;

std::string FormatTm(UtcTime time, bool with_millis) {
  const auto since_epoch = time.time_since_epoch();
  auto secs = duration_cast<seconds>(since_epoch);
  auto millis = duration_cast<milliseconds>(since_epoch - secs).count();
  if (millis < 0) {  // times before 1970: keep the fraction positive
    secs -= seconds(1);
    millis += 1000;
  }
  std::time_t t = static_cast<std::time_t>(secs.count());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  if (with_millis) {
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<int>(millis));
  } else {
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  }
  return buf;
}

bool NeedsShellQuoting(const std::string& arg) {
  if (arg.empty()) return true;
  for (char c : arg) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::string_view("-_./=:,+@%").find(c) != std::string_view::npos;
    if (!safe) return true;
  }
  return false;
}

}  // namespace

std::string FormatUtcTime(UtcTime time) { return FormatTm(time, /*with_millis=*/true); }

std::string FormatJunitTimestamp(UtcTime time) { return FormatTm(time, /*with_millis=*/false); }

StatusOr<UtcTime> ParseUtcTime(const std::string& text) {
  const Status bad =
      InvalidArgument("bad UTC time \"" + text + "\", expected YYYY-MM-DDTHH:MM:SS[.fff]Z");
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
      consumed != 19) {
    return bad;
  }
  if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60) {
    return bad;
  }
  size_t pos = 19;
  int64_t millis = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
      ++digits, ++pos;
    }
    if (digits == 0) return bad;
    for (int d = digits; d < 3; ++d) millis *= 10;
  }
  if (pos + 1 != text.size() || text[pos] != 'Z') return bad;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::time_t t = timegm(&tm);
  return UtcTime(duration_cast<UtcTime::duration>(seconds(t) + milliseconds(millis)));
}

std::string FormatNumber(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", value);
  return buf;
}

std::string FormatPercent(double share) {
  if (!std::isfinite(share)) return FormatNumber(share);
  if (share > 0 && share < 0.0001) return "<0.01%";
  char buf[32];
  const double pct = share * 100.0;
  std::snprintf(buf, sizeof(buf), pct >= 10.0 || pct == 0.0 ? "%.1f%%" : "%.2f%%", pct);
  return buf;
}

std::string FormatChange(double ratio) {
  if (!std::isfinite(ratio)) return FormatNumber(ratio);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%+.1f%%", ratio * 100.0);
  return buf;
}

std::string FormatShape(const std::vector<int64_t>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(dims[i]);
  }
  return out + "]";
}

std::string FormatPlacementCounts(const std::vector<PlacementRecord>& placements) {
  std::map<std::string, int> per_ep;
  for (const PlacementRecord& p : placements) ++per_ep[p.ep];
  std::string out;
  for (const auto& [ep, count] : per_ep) {
    if (!out.empty()) out += ",";
    out += ep + ":" + std::to_string(count);
  }
  return out;
}

std::string FormatOpsetImports(const std::map<std::string, int64_t>& imports) {
  std::string out;
  // The default domain sorts first ("" < anything), "ai.onnx" is its other spelling.
  for (const auto& [domain, version] : imports) {
    if (!out.empty()) out += ",";
    if (IsDefaultDomain(domain)) {
      out += std::to_string(version);
    } else {
      out += domain + ":" + std::to_string(version);
    }
  }
  return out;
}

std::string FormatOpVersions(const std::map<std::string, int64_t>& versions) {
  std::string out;
  for (const auto& [op, version] : versions) {
    if (!out.empty()) out += ",";
    out += op + ":" + std::to_string(version);
  }
  return out;
}

std::string JoinStrings(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string ShellJoin(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) {
    if (!out.empty()) out += " ";
    if (!NeedsShellQuoting(arg)) {
      out += arg;
      continue;
    }
    out += "'";
    for (char c : arg) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    out += "'";
  }
  return out;
}

std::string CaseDisplayName(const CaseRecord& c) { return c.name + "[" + TargetName(c) + "]"; }

std::string OneLine(std::string_view text, size_t max_chars) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  if (out.size() <= max_chars) return out;
  static constexpr std::string_view kEllipsis = "...";
  size_t cut = max_chars > kEllipsis.size() ? max_chars - kEllipsis.size() : 0;
  // Step back over UTF-8 continuation bytes so no character is cut in half.
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out + std::string(kEllipsis);
}

std::string FormatComparison(const OutputComparison& o) {
  std::ostringstream s;
  s << "output \"" << o.output_name << "\" set " << o.set_index << " " << o.dtype
    << FormatShape(o.expected_shape) << ": ";
  if (!o.error.empty()) {
    s << o.error;
    if (o.expected_shape != o.actual_shape) {
      s << " (expected shape " << FormatShape(o.expected_shape) << ", got "
        << FormatShape(o.actual_shape) << ")";
    }
    return s.str();
  }
  s << "max abs err " << FormatNumber(o.max_abs_error) << ", max rel err "
    << FormatNumber(o.max_rel_error) << ", mismatches " << o.mismatch_count << "/"
    << o.total_elements << " (" << FormatPercent(o.mismatch_share) << ")";
  if (o.worst_index >= 0) {
    s << ", worst at " << o.worst_index << " " << FormatShape(o.worst_index_nd) << ": expected "
      << o.worst_expected << ", got " << o.worst_actual;
  }
  const bool rtol_helps = std::isfinite(o.min_passing_rtol);
  const bool atol_helps = std::isfinite(o.min_passing_atol);
  if (rtol_helps && atol_helps) {
    s << "; would pass with rtol >= " << FormatNumber(o.min_passing_rtol)
      << " or atol >= " << FormatNumber(o.min_passing_atol);
  } else if (rtol_helps) {
    s << "; would pass with rtol >= " << FormatNumber(o.min_passing_rtol);
  } else if (atol_helps) {
    s << "; would pass with atol >= " << FormatNumber(o.min_passing_atol);
  } else {
    s << "; no tolerance would pass";
  }
  s << " (used rtol " << FormatNumber(o.rtol) << ", atol " << FormatNumber(o.atol) << ")";
  return s.str();
}

std::vector<std::string> FailingComparisons(const CaseRecord& c) {
  std::vector<std::string> lines;
  for (const OutputComparison& o : c.outputs) {
    if (!o.passed) lines.push_back(FormatComparison(o));
  }
  return lines;
}

std::vector<std::string> FormatDeclines(const std::vector<PlacementRecord>& placements) {
  std::vector<std::string> lines;
  for (const PlacementRecord& p : placements) {
    for (const DeclineRecord& d : p.declines) {
      lines.push_back("node " + p.node + " (" + p.op_type + ") ran on " + p.ep + "; " + d.ep +
                      " declined: " + d.reason);
    }
  }
  return lines;
}

std::string FormatLatencySummary(const LatencyRecord& r) {
  if (r.verdict == LatencyVerdict::kError) return "not measured";
  std::string out = "median " + FormatNumber(r.median_ms) + " ms";
  if (!r.baseline_median_ms) return out + " (no baseline)";
  out += " vs baseline " + FormatNumber(*r.baseline_median_ms) + " ms (";
  if (r.change_ratio) {
    out += FormatChange(*r.change_ratio);
  } else {
    out += "change unknown";
  }
  if (r.p_value) out += ", p=" + FormatNumber(*r.p_value);
  if (r.threshold) out += ", threshold " + FormatPercent(*r.threshold);
  out += ", cv " + FormatPercent(r.cv) + ")";
  return out;
}

std::string LatencyDisplayName(const LatencyRecord& r) {
  return r.model + "[" + TargetName(r) + "," + std::to_string(r.threads) + "t" +
         (r.shapes.empty() ? "" : "," + r.shapes) + "]";
}

std::string LatencyModelShapes(const LatencyRecord& r) {
  return r.shapes.empty() ? r.model : r.model + "[" + r.shapes + "]";
}

std::string FormatLatencyTiming(const std::vector<LatencyRecord>& records) {
  std::vector<std::pair<std::string, int>> counts;  // per side and clock, in first-seen order
  for (const LatencyRecord& r : records) {
    if (r.timed_by.empty()) continue;
    const std::string side = r.timed_by == "runtime" ? "by the runtime, inside its own process"
                                                     : "by the " + r.timed_by + ", around each run";
    const std::string key = side + " (" + (r.clock.empty() ? "?" : r.clock) + " clock)";
    auto it =
        std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == key; });
    if (it == counts.end()) {
      counts.emplace_back(key, 1);
    } else {
      ++it->second;
    }
  }
  std::string line;
  for (const auto& [key, n] : counts) {
    line += (line.empty() ? "Timed " : "; ") + key + ": " + std::to_string(n);
  }
  return line;
}

}  // namespace onnxgate
