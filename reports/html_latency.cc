// The HTML page's latency section: a table of every record and an inline SVG bar chart of the
// median against the baseline.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reports/format.h"
#include "reports/html_internal.h"

namespace onnxgate {
namespace html_internal {
namespace {

// Four significant digits: a latency is noisier than that, and the table must fit 1280 px.
std::string Short(double value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", value);
  return buf;
}

std::string Ms(double value) { return Short(value) + " ms"; }

std::string OptionalMs(const std::optional<double>& value) {
  return value ? Ms(*value) : std::string("–");
}

// Bar lengths need a finite, non-negative value.
double Drawable(double value) { return std::isfinite(value) && value > 0 ? value : 0.0; }

void WriteChart(std::ostringstream& out, const std::vector<LatencyRecord>& records,
                const HtmlOptions& options) {
  const size_t shown = std::min(records.size(), options.max_chart_bars);
  if (shown == 0) return;
  double scale = 0.0;
  for (size_t i = 0; i < shown; ++i) {
    scale = std::max(scale, Drawable(records[i].median_ms));
    if (records[i].baseline_median_ms) {
      scale = std::max(scale, Drawable(*records[i].baseline_median_ms));
    }
  }
  if (scale <= 0.0) scale = 1.0;
  constexpr int kLabelWidth = 260, kBarWidth = 480, kValueWidth = 360, kRow = 26, kTop = 24;
  const int width = kLabelWidth + kBarWidth + kValueWidth;
  const int height = kTop + static_cast<int>(shown) * kRow + 4;
  const auto bar = [&](double value) {
    return std::to_string(static_cast<int>(std::lround(Drawable(value) / scale * kBarWidth)));
  };
  // At most its natural size, narrower with the window (the viewBox keeps the proportions).
  out << "<svg class=\"chart\" style=\"max-width:100%;height:auto\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height
      << "\" role=\"img\" aria-label=\"median latency against "
      << "baseline\">\n"
      << "<rect x=\"" << kLabelWidth << "\" y=\"4\" width=\"10\" height=\"10\" class=\"b-median\"/>"
      << "<text x=\"" << kLabelWidth + 14 << "\" y=\"13\">median (coloured by verdict)</text>"
      << "<rect x=\"" << kLabelWidth + 220 << "\" y=\"4\" width=\"10\" height=\"10\" "
      << "class=\"b-baseline\"/><text x=\"" << kLabelWidth + 234 << "\" y=\"13\">baseline "
      << "median</text>\n";
  for (size_t i = 0; i < shown; ++i) {
    const LatencyRecord& r = records[i];
    const int y = kTop + static_cast<int>(i) * kRow;
    out << "<g class=\"l-" << LatencyVerdictToString(r.verdict) << "\">"
        << "<text x=\"" << kLabelWidth - 6 << "\" y=\"" << y + 16 << "\" text-anchor=\"end\">"
        << Text(OneLine(LatencyDisplayName(r), 40)) << "</text>"
        << "<rect x=\"" << kLabelWidth << "\" y=\"" << y + 3 << "\" width=\"" << bar(r.median_ms)
        << "\" height=\"10\" class=\"b-median\"/>";
    if (r.baseline_median_ms) {
      out << "<rect x=\"" << kLabelWidth << "\" y=\"" << y + 14 << "\" width=\""
          << bar(*r.baseline_median_ms) << "\" height=\"8\" class=\"b-baseline\"/>";
    }
    std::string value = Ms(r.median_ms);
    if (r.baseline_median_ms) value += " vs " + Ms(*r.baseline_median_ms);
    if (r.change_ratio) value += " (" + FormatChange(*r.change_ratio) + ")";
    if (r.verdict != LatencyVerdict::kNoBaseline) {
      value += std::string(" ") + LatencyVerdictToString(r.verdict);
    }
    if (!r.noise.empty()) value += " (unreliable)";
    out << "<text x=\"" << kLabelWidth + kBarWidth + 8 << "\" y=\"" << y + 16 << "\">"
        << Text(value) << "</text></g>\n";
  }
  out << "</svg>\n";
  if (records.size() > shown) {
    out << "<p>The chart shows the first " << shown << " of " << records.size()
        << " records; the table has them all.</p>\n";
  }
}

}  // namespace

void WriteLatencySection(std::ostringstream& out, const RunRecord& run,
                         const HtmlOptions& options) {
  out << "<h2 id=\"latency\">Latency</h2>\n";
  if (run.latency.empty()) {
    out << "<p>No benchmark ran.</p>\n";
    return;
  }
  WriteChart(out, run.latency, options);
  if (const std::string timing = FormatLatencyTiming(run.latency); !timing.empty()) {
    out << "<p class=\"timing\">" << Text(timing) << "</p>\n";
  }
  // Eleven narrow columns and the message on a row of its own below its record. The cells that
  // hold several values (the spread, the mean with its CV, the load times, the change with its
  // threshold) wrap between them and names wrap anywhere, so the table fits a 1280 px window
  // with the Verdict column in it; the wrapper would scroll, not the page, should it not.
  constexpr int kColumns = 11;
  out << "<div class=\"hscroll\"><table class=\"data latency\" id=\"latency-table\"><thead><tr>"
         "<th>Model</th><th>EP</th><th>Threads</th><th>Median</th>"
         "<th>Min / p90 / p99</th><th>Mean, CV (reps)</th><th>Load / first run</th>"
         "<th>Baseline</th><th>Change</th><th>p</th><th>Verdict</th>"
         "</tr></thead><tbody>\n";
  for (const LatencyRecord& r : run.latency) {
    const std::string verdict_class = std::string("l-") + LatencyVerdictToString(r.verdict);
    out << "<tr class=\"" << verdict_class << "\"><td class=\"name\">"
        << Text(LatencyModelShapes(r)) << "</td><td class=\"name\">" << Text(TargetName(r))
        << "</td><td class=\"num\">" << r.threads << "</td><td class=\"num\">" << Ms(r.median_ms)
        << "</td><td class=\"nums\">" << Short(r.min_ms) << " / " << Short(r.p90_ms) << " / "
        << Ms(r.p99_ms) << "</td><td class=\"nums\">" << Ms(r.mean_ms) << ", "
        << FormatPercent(r.cv) << " <span class=\"sub\">(" << r.repetitions
        << ")</span></td><td class=\"nums\">" << OptionalMs(r.load_ms) << " / "
        << OptionalMs(r.first_run_ms) << "</td><td class=\"num\">"
        << OptionalMs(r.baseline_median_ms) << "</td><td class=\"nums\">"
        << (r.change_ratio ? FormatChange(*r.change_ratio) : "–");
    if (r.threshold) out << " <span class=\"sub\">(±" << FormatPercent(*r.threshold) << ")</span>";
    out << "</td><td class=\"num\">" << (r.p_value ? Short(*r.p_value) : "–")
        << "</td><td><span class=\"lv\">" << LatencyVerdictToString(r.verdict) << "</span>"
        << (r.noise.empty() ? "" : " <span class=\"sub\">unreliable</span>") << "</td></tr>\n";
    if (!r.message.empty()) {
      out << "<tr class=\"" << verdict_class << " msgrow\"><td colspan=\"" << kColumns << "\">"
          << Text(OneLine(r.message, options.max_message_chars)) << "</td></tr>\n";
    }
    if (!r.noise.empty()) {
      out << "<tr class=\"" << verdict_class << " msgrow\"><td colspan=\"" << kColumns
          << "\">unreliable: " << Text(OneLine(r.noise, options.max_message_chars))
          << "</td></tr>\n";
    }
    if (!r.fallback.empty()) {
      out << "<tr class=\"" << verdict_class << " msgrow\"><td colspan=\"" << kColumns
          << "\">fallback: " << Text(OneLine(r.fallback, options.max_message_chars))
          << "</td></tr>\n";
    }
  }
  out << "</tbody></table></div>\n";
}

}  // namespace html_internal
}  // namespace onnxgate
