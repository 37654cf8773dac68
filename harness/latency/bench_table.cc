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

// One record's cells: a measured one's statistics, "-" for one that was not measured.
std::vector<std::string> RowOf(const LatencyRecord& r, bool with_shapes, bool with_comparison) {
  const bool measured = r.verdict != LatencyVerdict::kError;
  auto ms = [&](double v) { return measured ? FormatMs(v) : "-"; };
  std::vector<std::string> row = {EscapeForTerminal(r.model), TargetName(r),
                                  std::to_string(r.threads)};
  if (with_shapes) row.push_back(r.shapes.empty() ? "-" : EscapeForTerminal(r.shapes));
  for (const std::string& cell :
       {measured ? std::to_string(r.repetitions) : "-", OptionalMs(r.load_ms),
        OptionalMs(r.first_run_ms), ms(r.min_ms), ms(r.median_ms), ms(r.p90_ms), ms(r.p99_ms),
        ms(r.mean_ms), measured ? Fmt("%.1f%%", r.cv * 100.0) : "-"}) {
    row.push_back(cell);
  }
  if (with_comparison) {
    row.push_back(OptionalMs(r.baseline_median_ms));
    row.push_back(r.change_ratio ? Fmt("%+.1f%%", *r.change_ratio * 100.0) : "-");
    row.push_back(r.threshold ? Fmt("%.0f%%", *r.threshold * 100.0) : "-");
    row.push_back(r.p_value ? Fmt("%.2g", *r.p_value) : "-");
    row.push_back(LatencyVerdictToString(r.verdict));
  }
  return row;
}

}  // namespace

std::string FormatMs(double ms) {
  if (ms >= 100.0) return Fmt("%.1f", ms);
  if (ms >= 10.0) return Fmt("%.2f", ms);
  return Fmt("%.3f", ms);
}

std::string RenderBenchTable(const std::vector<LatencyRecord>& records, bool with_comparison) {
  const bool with_shapes = std::any_of(records.begin(), records.end(),
                                       [](const LatencyRecord& r) { return !r.shapes.empty(); });
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"model", "ep", "thr"};
  if (with_shapes) header.push_back("shapes");
  for (const char* h :
       {"reps", "load ms", "first ms", "min", "median", "p90", "p99", "mean", "cv"}) {
    header.push_back(h);
  }
  if (with_comparison) {
    for (const char* h : {"baseline", "change", "thresh", "p", "verdict"}) header.push_back(h);
  }
  rows.push_back(header);
  for (const LatencyRecord& r : records) rows.push_back(RowOf(r, with_shapes, with_comparison));
  const size_t names = with_shapes ? 4 : 2;  // left-aligned leading columns (thr aside)
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
      const bool left =
          i < 2 || (with_shapes && i + 1 == names) || (with_comparison && i + 1 == rows[r].size());
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
