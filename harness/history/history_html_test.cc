// Tests of the history page: a chart per series with a point per run and its hover text, the
// steps marked, names escaped, nothing loaded from elsewhere.
#include "harness/history/history_html.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

template <typename Point>
Stored<Point> At(int i, Point point) {
  Stored<Point> s;
  s.run_id = i + 1;
  s.context.commit = "commit" + std::to_string(i);
  s.context.branch = "main";
  s.point = std::move(point);
  return s;
}

HistorySeries Sample() {
  HistorySeries series;
  LatencySeries l;
  l.key.model = "<mlp>";
  l.key.runtime = "onnxgate";
  l.key.ep = "ref";
  for (int i = 0; i < 12; ++i) {
    LatencyPoint p;
    p.key = l.key;
    p.median_ms = i < 6 ? 1.0 : 1.1;
    l.points.push_back(At(i, p));
  }
  l.change_points.push_back({6, 1.0, 1.1, 0.1, 0.005});
  series.latency.push_back(l);
  for (int c = 0; c < 3; ++c) {
    MarginSeries m;
    m.key = {"suite", "case" + std::to_string(c), "onnxgate", "ref"};
    for (int i = 0; i < 12; ++i) {
      CasePoint p;
      p.key = m.key;
      p.verdict = "PASS";
      p.margin = 0.1 * (c + 1);
      m.points.push_back(At(i, p));
    }
    series.margins.push_back(m);
  }
  return series;
}

TEST(HistoryHtmlTest, AChartPerSeriesWithAPointPerRunAndTheStepMarked) {
  const std::string page = RenderHistoryHtml(Sample(), {});
  EXPECT_EQ(Count(page, "<svg"), 4u);
  EXPECT_EQ(Count(page, "<circle"), 48u);
  EXPECT_THAT(page, HasSubstr("<title>commit commit6 (main), run 7"));
  EXPECT_THAT(page, HasSubstr("median 1.1 ms"));
  EXPECT_EQ(Count(page, "class=\"step\""), 1u);
  EXPECT_EQ(Count(page, "class=\"steplabel\""), 1u);
  EXPECT_THAT(page, HasSubstr("+10.0% at commit6"));
  EXPECT_THAT(page, HasSubstr("&lt;mlp&gt;"));
  EXPECT_THAT(page, Not(HasSubstr("<mlp>")));
}

TEST(HistoryHtmlTest, SelfContained) {
  const std::string page = RenderHistoryHtml(Sample(), {});
  EXPECT_THAT(page, Not(HasSubstr("<script")));
  EXPECT_THAT(page, Not(HasSubstr("src=")));
  EXPECT_THAT(page, Not(HasSubstr("href=\"http")));
  EXPECT_THAT(page, Not(HasSubstr("@import")));
}

TEST(HistoryHtmlTest, MarginChartsAreTheNotableOnesThenNearestTheirToleranceThenFailing) {
  HistorySeries series = Sample();
  series.margins[0].change_points.push_back({6, 0.1, 0.12, 0.2, 0.01});
  const std::vector<const MarginSeries*> shown = NotableMarginSeries(series, 2);
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[0]->key.case_name, "case0");
  EXPECT_EQ(shown[1]->key.case_name, "case2");
  series.margins[1].points.back().point.margin = 5.0;  // failing: after those within the limit
  const std::vector<const MarginSeries*> all = NotableMarginSeries(series, 3);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[1]->key.case_name, "case2");
  EXPECT_EQ(all[2]->key.case_name, "case1");
  HistoryHtmlOptions options;
  options.max_margin_charts = 2;
  EXPECT_EQ(Count(RenderHistoryHtml(series, options), "<svg"), 3u);
}

TEST(HistoryHtmlTest, AnEmptyHistorySaysSo) {
  const std::string page = RenderHistoryHtml({}, {});
  EXPECT_THAT(page, HasSubstr("No latency results stored."));
  EXPECT_EQ(Count(page, "<svg"), 0u);
}

}  // namespace
}  // namespace onnxgate
