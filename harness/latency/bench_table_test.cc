// Tests of the bench's terminal table.
#include "harness/latency/bench_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

LatencyRecord Record() {
  LatencyRecord r;
  r.model = "mobilenet_v2";
  r.ep = "ref";
  r.threads = 1;
  r.repetitions = 10;
  r.min_ms = 98.76;
  r.median_ms = 101.234;
  r.p90_ms = 104.0;
  r.p99_ms = 105.5;
  r.mean_ms = 101.5;
  r.cv = 0.0234;
  r.load_ms = 45.0;
  r.first_run_ms = 130.0;
  return r;
}

TEST(BenchTableTest, FormatsMilliseconds) {
  EXPECT_EQ(FormatMs(0.41234), "0.412");
  EXPECT_EQ(FormatMs(12.347), "12.35");
  EXPECT_EQ(FormatMs(1234.56), "1234.6");
}

TEST(BenchTableTest, PlainTableHasStatisticsColumns) {
  const auto lines = Lines(RenderBenchTable({Record()}, false));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_THAT(lines[0], HasSubstr("model"));
  EXPECT_THAT(lines[0], HasSubstr("median"));
  EXPECT_THAT(lines[0], ::testing::Not(HasSubstr("verdict")));
  EXPECT_EQ(lines[1].find_first_not_of('-'), std::string::npos);
  EXPECT_THAT(lines[2], HasSubstr("mobilenet_v2  ref"));
  EXPECT_THAT(lines[2], HasSubstr("101.2"));
  EXPECT_THAT(lines[2], HasSubstr("2.3%"));
  EXPECT_EQ(lines[0].size(), lines[2].size());  // columns line up
}

TEST(BenchTableTest, ComparisonColumns) {
  LatencyRecord r = Record();
  r.baseline_median_ms = 80.0;
  r.change_ratio = 0.2654;
  r.threshold = 0.1;
  r.p_value = 0.00012;
  r.verdict = LatencyVerdict::kRegression;
  LatencyRecord none = Record();
  none.model = "mlp";
  const auto lines = Lines(RenderBenchTable({r, none}, true));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[0], HasSubstr("verdict"));
  EXPECT_THAT(lines[2], HasSubstr("+26.5%"));
  EXPECT_THAT(lines[2], HasSubstr("10%"));
  EXPECT_THAT(lines[2], HasSubstr("0.00012"));
  EXPECT_THAT(lines[2], HasSubstr("regression"));
  EXPECT_THAT(lines[3], HasSubstr("no-baseline"));
}

// A model's name is a file name a user chose: bidi and zero-width characters in it are shown, not
// obeyed, so they cannot reorder the table's line.
TEST(BenchTableTest, ModelNamesAreEscapedForTheTerminal) {
  LatencyRecord r = Record();
  r.model = "evil\u202e\u200bnet";
  const std::string table = RenderBenchTable({r}, false);
  EXPECT_THAT(table, HasSubstr("evil\\u202e\\u200bnet"));
  EXPECT_EQ(table.find("\u202e"), std::string::npos);
  EXPECT_EQ(table.find("\u200b"), std::string::npos);
}

// A shapes column appears when a record has shapes; a record that was not measured has no
// numbers.
TEST(BenchTableTest, ShapesColumnAndUnmeasuredRows) {
  EXPECT_THAT(Lines(RenderBenchTable({Record()}, false))[0], Not(HasSubstr("shapes")));
  LatencyRecord shaped = Record();
  shaped.model = "bert";
  shaped.shapes = "batch=4,seq=128";
  LatencyRecord failed = Record();
  failed.model = "broken";
  failed.load_ms.reset();
  failed.first_run_ms.reset();
  failed.verdict = LatencyVerdict::kError;
  const std::vector<std::string> lines = Lines(RenderBenchTable({shaped, failed}, true));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[0], HasSubstr("thr  shapes"));
  EXPECT_THAT(lines[2], HasSubstr("1  batch=4,seq=128"));
  EXPECT_THAT(lines[2], HasSubstr("101.2"));
  EXPECT_THAT(lines[3], Not(HasSubstr("101.2")));
  EXPECT_THAT(lines[3], HasSubstr(" -  "));
  EXPECT_THAT(lines[3], ::testing::EndsWith("error"));
}

}  // namespace
}  // namespace onnxgate
