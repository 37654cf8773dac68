// Renders the bench's terminal table.
#include "harness/latency/bench_table.h"

#include <algorithm>
#include <cstdio>

#include "reports/text_escape.h"

namespace onnxgate {

namespace {

std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string OptionalMs(const std::optional<double>& v) { return v ? FormatMs(*v) : "-"; }

}  // namespace

std::string FormatMs(double ms) {
  if (ms >= 100.0) return Fmt("%.1f", ms);
  if (ms >= 10.0) return Fmt("%.2f", ms);
  return Fmt("%.3f", ms);
}

std::string RenderBenchTable(const std::vector<LatencyRecord>& records, bool with_comparison) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"model", "ep",     "thr", "reps", "load ms", "first ms",
                                     "min",   "median", "p90", "p99",  "mean",    "cv"};
  if (with_comparison) {
    for (const char* h : {"baseline", "change", "thresh", "p", "verdict"}) header.push_back(h);
  }
  rows.push_back(header);
  for (const LatencyRecord& r : records) {
    std::vector<std::string> row = {EscapeForTerminal(r.model), TargetName(r),
                                    std::to_string(r.threads),  std::to_string(r.repetitions),
                                    OptionalMs(r.load_ms),      OptionalMs(r.first_run_ms),
                                    FormatMs(r.min_ms),         FormatMs(r.median_ms),
                                    FormatMs(r.p90_ms),         FormatMs(r.p99_ms),
                                    FormatMs(r.mean_ms),        Fmt("%.1f%%", r.cv * 100.0)};
    if (with_comparison) {
      row.push_back(OptionalMs(r.baseline_median_ms));
      row.push_back(r.change_ratio ? Fmt("%+.1f%%", *r.change_ratio * 100.0) : "-");
      row.push_back(r.threshold ? Fmt("%.0f%%", *r.threshold * 100.0) : "-");
      row.push_back(r.p_value ? Fmt("%.2g", *r.p_value) : "-");
      row.push_back(LatencyVerdictToString(r.verdict));
    }
    rows.push_back(row);
  }
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (size_t i = 0; i < rows[r].size(); ++i) {
      const std::string& cell = rows[r][i];
      const std::string pad(widths[i] - cell.size(), ' ');
      // Names left-aligned, numbers right-aligned so decimal places line up.
      const bool left = i < 2 || (with_comparison && i + 1 == rows[r].size());
      line += left ? cell + pad : pad + cell;
      if (i + 1 < rows[r].size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) out += std::string(line.size(), '-') + "\n";
  }
  return out;
}

}  // namespace onnxgate
