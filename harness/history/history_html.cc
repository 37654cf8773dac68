// The history page: a summary table and an inline SVG chart per series.
#include "harness/history/history_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reports/text_escape.h"

namespace onnxgate {

namespace {

constexpr char kStyle[] = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 margin:0 24px 48px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:18px 0 6px}
h2{font-size:18px;margin:30px 0 10px;padding-bottom:4px;border-bottom:1px solid #d0d7de}
h3{font-size:15px;margin:22px 0 2px;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;table-layout:fixed}
th,td{padding:2px 6px;text-align:left;vertical-align:top;border:1px solid #d0d7de;
 overflow-wrap:anywhere}
thead th{background:#f6f8fa}
.c-series{width:34%}.c-points{width:5em}.c-latest{width:9em}
.num{text-align:right;white-space:nowrap}
.sub{color:#57606a;font-size:12px}
.bad{color:#cf222e;font-weight:600}
svg{display:block;width:100%;height:auto;max-width:1240px}
svg text{font:11px system-ui,sans-serif;fill:#57606a}
svg .line{fill:none;stroke:#0969da;stroke-width:1.5}
svg .pt{fill:#0969da}svg .pt:hover{fill:#1f2328}
svg .grid{stroke:#eaeef2}svg .mean{stroke:#8c959f;stroke-dasharray:6 3}
svg .step{stroke:#cf222e;stroke-width:1.5;stroke-dasharray:4 3}svg .steplabel{fill:#cf222e}
)css";

constexpr double kWidth = 1100, kHeight = 200;
constexpr double kLeft = 70, kRight = 16, kTop = 18, kBottom = 30;

std::string Text(const std::string& s) { return XmlEscapeText(ToValidUtf8(s)); }
std::string Attr(const std::string& s) { return XmlEscapeAttribute(ToValidUtf8(s)); }

std::string Num(double v, const char* format = "%.4g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string Percent(double change) { return Num(change * 100.0, "%+.1f%%"); }

std::string ShortCommit(const std::string& commit) { return commit.substr(0, 10); }

// One point of a chart: its value and what hovering it shows.
struct ChartPoint {
  double value = 0.0;
  std::string commit;
  std::string tip;
};

// Where values and indices land on the chart.
struct Scale {
  size_t n = 0;
  double lo = 0.0, hi = 1.0;
  double X(size_t i) const {
    const double width = kWidth - kLeft - kRight;
    return n < 2 ? kLeft + width / 2 : kLeft + width * static_cast<double>(i) / (n - 1);
  }
  double Y(double v) const {
    const double height = kHeight - kTop - kBottom;
    return kTop + height - (v - lo) / (hi - lo) * height;
  }
};

Scale ScaleOf(const std::vector<ChartPoint>& points) {
  Scale s;
  s.n = points.size();
  s.lo = s.hi = points.empty() ? 0.0 : points.front().value;
  for (const ChartPoint& p : points) {
    s.lo = std::min(s.lo, p.value);
    s.hi = std::max(s.hi, p.value);
  }
  const double pad = s.hi > s.lo ? (s.hi - s.lo) * 0.08 : std::max(std::fabs(s.hi) * 0.05, 1e-9);
  // Margins and times are never negative: no axis below 0 for them.
  s.lo = s.lo >= 0 ? std::max(0.0, s.lo - pad) : s.lo - pad;
  s.hi += pad;
  return s;
}

void WriteAxes(std::ostringstream& out, const Scale& s, const std::string& unit) {
  for (int i = 0; i <= 2; ++i) {
    const double v = s.lo + (s.hi - s.lo) * i / 2.0;
    out << "<line class=\"grid\" x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\""
        << Num(s.Y(v), "%.1f") << "\" y2=\"" << Num(s.Y(v), "%.1f") << "\"/>"
        << "<text x=\"" << kLeft - 6 << "\" y=\"" << Num(s.Y(v) + 4, "%.1f")
        << "\" text-anchor=\"end\">" << Num(v) << (i == 2 ? " " + unit : "") << "</text>\n";
  }
}

// The mean of each segment between change points, as a dashed line across it.
void WriteSegmentMeans(std::ostringstream& out, const Scale& s,
                       const std::vector<ChartPoint>& points,
                       const std::vector<ChangePoint>& changes) {
  std::vector<size_t> bounds = {0};
  for (const ChangePoint& c : changes) bounds.push_back(c.index);
  bounds.push_back(points.size());
  for (size_t b = 0; b + 1 < bounds.size(); ++b) {
    if (bounds[b + 1] <= bounds[b]) continue;
    double sum = 0.0;
    for (size_t i = bounds[b]; i < bounds[b + 1]; ++i) sum += points[i].value;
    const double y = s.Y(sum / static_cast<double>(bounds[b + 1] - bounds[b]));
    out << "<line class=\"mean\" x1=\"" << Num(s.X(bounds[b]), "%.1f") << "\" x2=\""
        << Num(s.X(bounds[b + 1] - 1), "%.1f") << "\" y1=\"" << Num(y, "%.1f") << "\" y2=\""
        << Num(y, "%.1f") << "\"/>\n";
  }
}

void WriteSteps(std::ostringstream& out, const Scale& s, const std::vector<ChartPoint>& points,
                const std::vector<ChangePoint>& changes) {
  for (const ChangePoint& c : changes) {
    if (c.index == 0 || c.index >= points.size()) continue;
    const double x = (s.X(c.index - 1) + s.X(c.index)) / 2;
    out << "<line class=\"step\" x1=\"" << Num(x, "%.1f") << "\" x2=\"" << Num(x, "%.1f")
        << "\" y1=\"" << kTop << "\" y2=\"" << kHeight - kBottom << "\"><title>"
        << Text("change point: " + Num(c.mean_before) + " -> " + Num(c.mean_after) + " (" +
                Percent(c.relative_change) + ", p=" + Num(c.p_value, "%.3g") + ") from commit " +
                points[c.index].commit)
        << "</title></line><text class=\"steplabel\" x=\"" << Num(x + 4, "%.1f") << "\" y=\""
        << kTop - 5 << "\">"
        << Text(Percent(c.relative_change) + " at " + ShortCommit(points[c.index].commit))
        << "</text>\n";
  }
}

void WritePoints(std::ostringstream& out, const Scale& s, const std::vector<ChartPoint>& points) {
  out << "<polyline class=\"line\" points=\"";
  for (size_t i = 0; i < points.size(); ++i) {
    out << (i ? " " : "") << Num(s.X(i), "%.1f") << "," << Num(s.Y(points[i].value), "%.1f");
  }
  out << "\"/>\n";
  for (size_t i = 0; i < points.size(); ++i) {
    out << "<circle class=\"pt\" r=\"3.5\" cx=\"" << Num(s.X(i), "%.1f") << "\" cy=\""
        << Num(s.Y(points[i].value), "%.1f") << "\"><title>" << Text(points[i].tip)
        << "</title></circle>\n";
  }
  if (points.empty()) return;
  const double y = kHeight - kBottom + 16;
  out << "<text x=\"" << Num(s.X(0), "%.1f") << "\" y=\"" << y << "\">"
      << Text(ShortCommit(points.front().commit)) << "</text><text x=\""
      << Num(s.X(points.size() - 1), "%.1f") << "\" y=\"" << y << "\" text-anchor=\"end\">"
      << Text(ShortCommit(points.back().commit)) << "</text>\n";
}

std::string Chart(const std::vector<ChartPoint>& points, const std::vector<ChangePoint>& changes,
                  const std::string& unit, const std::string& label) {
  const Scale s = ScaleOf(points);
  std::ostringstream out;
  out << "<svg viewBox=\"0 0 " << kWidth << " " << kHeight << "\" role=\"img\" aria-label=\""
      << Attr(label) << "\">\n";
  WriteAxes(out, s, unit);
  WriteSegmentMeans(out, s, points, changes);
  WriteSteps(out, s, points, changes);
  WritePoints(out, s, points);
  out << "</svg>\n";
  return out.str();
}

template <typename Point>
std::string Tip(const Stored<Point>& p, const std::string& value) {
  return "commit " + p.context.commit + " (" + p.context.branch + "), run " +
         std::to_string(p.run_id) + ", " + p.context.recorded + ": " + value;
}

std::vector<ChartPoint> LatencyPoints(const LatencySeries& series) {
  std::vector<ChartPoint> points;
  for (const Stored<LatencyPoint>& p : series.points) {
    const LatencyPoint& l = p.point;
    points.push_back({l.median_ms, p.context.commit,
                      Tip(p, "median " + Num(l.median_ms) + " ms (min " + Num(l.min_ms) + ", p90 " +
                                 Num(l.p90_ms) + ", cv " + Num(l.cv * 100, "%.1f") + "%, " +
                                 std::to_string(l.samples) + " samples)")});
  }
  return points;
}

std::vector<ChartPoint> MarginPoints(const MarginSeries& series) {
  std::vector<ChartPoint> points;
  for (const Stored<CasePoint>& p : series.points) {
    points.push_back({*p.point.margin, p.context.commit,
                      Tip(p, p.point.verdict + ", margin " + Num(*p.point.margin, "%.3g") +
                                 " of the tolerance")});
  }
  return points;
}

std::string ChangesText(const std::vector<ChangePoint>& changes,
                        const std::vector<ChartPoint>& points) {
  if (changes.empty()) return "none";
  std::string text;
  for (const ChangePoint& c : changes) {
    if (!text.empty()) text += "; ";
    text += Percent(c.relative_change) + " (" + Num(c.mean_before) + " → " + Num(c.mean_after) +
            ") from " + ShortCommit(points[c.index].commit);
  }
  return text;
}

void WriteRow(std::ostringstream& out, const std::string& label, const std::string& anchor,
              const std::vector<ChartPoint>& points, const std::vector<ChangePoint>& changes,
              const std::string& latest, const std::string& extra) {
  const bool flagged = !changes.empty() || !extra.empty();
  out << "<tr><td><a href=\"#" << anchor << "\">" << Text(label) << "</a></td><td class=\"num\">"
      << points.size() << "</td><td class=\"num\">" << Text(latest) << "</td><td"
      << (flagged ? " class=\"bad\"" : "") << ">"
      << (changes.empty() && !extra.empty() ? "" : Text(ChangesText(changes, points)))
      << (extra.empty() ? "" : (changes.empty() ? "" : "; ") + Text(extra)) << "</td></tr>\n";
}

void WriteTableHead(std::ostringstream& out, const char* latest) {
  out << "<table><thead><tr><th class=\"c-series\">series</th><th class=\"c-points\">points"
         "</th><th class=\"c-latest\">"
      << latest << "</th><th>change points</th></tr></thead><tbody>\n";
}

void WriteLatency(std::ostringstream& out, const HistorySeries& series) {
  out << "<h2>Latency (" << series.latency.size() << " series)</h2>\n";
  if (series.latency.empty()) {
    out << "<p class=\"sub\">No latency results stored.</p>\n";
    return;
  }
  WriteTableHead(out, "latest median");
  for (size_t i = 0; i < series.latency.size(); ++i) {
    const LatencySeries& s = series.latency[i];
    WriteRow(out, LatencyKeyLabel(s.key), "l" + std::to_string(i), LatencyPoints(s),
             s.change_points, Num(s.points.back().point.median_ms) + " ms", "");
  }
  out << "</tbody></table>\n";
  for (size_t i = 0; i < series.latency.size(); ++i) {
    const LatencySeries& s = series.latency[i];
    const std::string label = LatencyKeyLabel(s.key);
    const std::string sha = s.points.back().point.model_sha256;
    out << "<h3 id=\"l" << i << "\">" << Text(label) << "</h3>\n<div class=\"sub\">median per run"
        << (sha.empty() ? "" : ", latest model sha256 " + Text(sha.substr(0, 12))) << "</div>\n"
        << Chart(LatencyPoints(s), s.change_points, "ms", label);
  }
}

void WriteMargins(std::ostringstream& out, const HistorySeries& series,
                  const HistoryHtmlOptions& options) {
  const std::vector<const MarginSeries*> shown =
      NotableMarginSeries(series, options.max_margin_charts);
  out << "<h2>Error margins (" << series.margins.size() << " series, " << shown.size()
      << " shown)</h2>\n<p class=\"sub\">The share of its tolerance each case's worst output used"
         " (1 = at the limit). Shown: the series with a change point or a drift, then those "
         "nearest their tolerance.</p>\n";
  if (shown.empty()) return;
  WriteTableHead(out, "latest margin");
  for (size_t i = 0; i < shown.size(); ++i) {
    const MarginSeries& s = *shown[i];
    WriteRow(out, CaseKeyLabel(s.key), "m" + std::to_string(i), MarginPoints(s), s.change_points,
             Num(*s.points.back().point.margin, "%.3g"),
             s.drift ? "drifting: " + s.drift->reason : "");
  }
  out << "</tbody></table>\n";
  for (size_t i = 0; i < shown.size(); ++i) {
    const std::string label = CaseKeyLabel(shown[i]->key);
    out << "<h3 id=\"m" << i << "\">" << Text(label) << "</h3>\n"
        << Chart(MarginPoints(*shown[i]), shown[i]->change_points, "", label);
  }
}

}  // namespace

std::vector<const MarginSeries*> NotableMarginSeries(const HistorySeries& series, size_t max) {
  std::vector<const MarginSeries*> out;
  for (const MarginSeries& s : series.margins) out.push_back(&s);
  auto notable = [](const MarginSeries* s) { return !s->change_points.empty() || s->drift; };
  auto latest = [](const MarginSeries* s) { return *s->points.back().point.margin; };
  // Past the limit (failing, often as expected) after those still within it.
  auto within = [&latest](const MarginSeries* s) { return latest(s) <= 1.0; };
  std::stable_sort(out.begin(), out.end(), [&](const MarginSeries* a, const MarginSeries* b) {
    if (notable(a) != notable(b)) return notable(a);
    if (within(a) != within(b)) return within(a);
    return latest(a) > latest(b);
  });
  if (out.size() > max) out.resize(max);
  return out;
}

std::string RenderHistoryHtml(const HistorySeries& series, const HistoryHtmlOptions& options) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
      << Text(options.title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<h1>"
      << Text(options.title) << "</h1>\n<div class=\"sub\">" << Text(options.database)
      << " · points in run order, one per run · dashed red line: a change point (the first "
         "run after it is labelled) · grey dashes: the mean of each segment · hover a point for "
         "its commit and values</div>\n";
  WriteLatency(out, series);
  WriteMargins(out, series, options);
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace onnxgate
