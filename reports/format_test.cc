// Tests of the shared text pieces: times, numbers, placements, comparison summaries.
#include "reports/format.h"

#include <gtest/gtest.h>

#include <limits>

#include "reports/report_test_util.h"

namespace onnxgate {
namespace {

TEST(TimeTest, FormatsAndParsesUtc) {
  const UtcTime t = UtcTime(std::chrono::milliseconds(1714558830123));
  EXPECT_EQ(FormatUtcTime(t), "2024-05-01T10:20:30.123Z");
  EXPECT_EQ(FormatJunitTimestamp(t), "2024-05-01T10:20:30");
  StatusOr<UtcTime> parsed = ParseUtcTime("2024-05-01T10:20:30.123Z");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, t);
  StatusOr<UtcTime> whole = ParseUtcTime("2024-05-01T10:20:30Z");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*whole, t - std::chrono::milliseconds(123));
  StatusOr<UtcTime> fine = ParseUtcTime("2024-05-01T10:20:30.1239Z");
  ASSERT_TRUE(fine.ok());
  EXPECT_EQ(*fine, t);
  EXPECT_EQ(FormatUtcTime(UtcTime()), "1970-01-01T00:00:00.000Z");
}

TEST(TimeTest, RejectsOtherForms) {
  for (const char* bad : {"", "2024-05-01", "2024-05-01T10:20:30", "2024-05-01T10:20:30+02:00",
                          "2024-13-01T10:20:30Z", "2024-05-01T10:20:30.Z", "2024-05-01 10:20:30Z",
                          "2024-05-01T10:20:30Zjunk"}) {
    StatusOr<UtcTime> t = ParseUtcTime(bad);
    EXPECT_FALSE(t.ok()) << bad;
    if (!t.ok()) {
      EXPECT_NE(t.status().message().find(bad), std::string::npos);
    }
  }
}

TEST(FormatTest, NumbersPercentagesShapes) {
  EXPECT_EQ(FormatNumber(0.5), "0.5");
  EXPECT_EQ(FormatNumber(1e-7), "1e-07");
  EXPECT_EQ(FormatNumber(123456789.0), "1.23457e+08");
  EXPECT_EQ(FormatNumber(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatNumber(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatNumber(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatPercent(1.0 / 3.0), "33.3%");
  EXPECT_EQ(FormatPercent(0.05), "5.00%");
  EXPECT_EQ(FormatPercent(0.0), "0.0%");
  EXPECT_EQ(FormatPercent(1e-7), "<0.01%");
  EXPECT_EQ(FormatChange(0.2178), "+21.8%");
  EXPECT_EQ(FormatChange(-0.04), "-4.0%");
  EXPECT_EQ(FormatShape({}), "[]");
  EXPECT_EQ(FormatShape({1, 3, 224, 224}), "[1,3,224,224]");
}

TEST(FormatTest, PlacementsOpsetsAndOpVersions) {
  std::vector<PlacementRecord> placements = {
      {"a", "MatMul", "ref", {}, ""}, {"b", "Add", "dnnl", {}, ""}, {"c", "Relu", "dnnl", {}, ""}};
  EXPECT_EQ(FormatPlacementCounts(placements), "dnnl:2,ref:1");
  EXPECT_EQ(FormatPlacementCounts({}), "");
  EXPECT_EQ(FormatOpsetImports({{"", 13}}), "13");
  EXPECT_EQ(FormatOpsetImports({{"", 17}, {"com.microsoft", 1}}), "17,com.microsoft:1");
  EXPECT_EQ(FormatOpVersions({{"Conv", 11}, {"Relu", 14}}), "Conv:11,Relu:14");
}

TEST(FormatTest, ShellJoinQuotesWhatNeedsIt) {
  EXPECT_EQ(ShellJoin({"onnxgate", "run", "--filter=test_*", "a b", "it's", ""}),
            "onnxgate run '--filter=test_*' 'a b' 'it'\\''s' ''");
}

TEST(FormatTest, OneLineCollapsesAndCutsOnCharacterBoundaries) {
  EXPECT_EQ(OneLine("  a\n\n b\tc  ", 100), "a b c");
  EXPECT_EQ(OneLine("abcdefghij", 8), "abcde...");
  // "é" is two bytes; the cut must not split it.
  EXPECT_EQ(OneLine("aaaa\xC3\xA9zzzz", 8), "aaaa...");
}

TEST(FormatTest, ComparisonSummarySaysWhatWhereAndWhichToleranceWouldPass) {
  OutputComparison o = SampleFailingOutput();
  EXPECT_EQ(FormatComparison(o),
            "output \"y\" set 0 float[2,3]: max abs err 0.5, max rel err 0.25, mismatches 2/6 "
            "(33.3%), worst at 4 [1,1]: expected 2, got 2.5; would pass with rtol >= 0.25 or "
            "atol >= 0.5 (used rtol 0.001, atol 1e-07)");
  o.min_passing_rtol = std::numeric_limits<double>::infinity();
  EXPECT_NE(FormatComparison(o).find("; would pass with atol >= 0.5 ("), std::string::npos);
  o.min_passing_atol = std::numeric_limits<double>::infinity();
  EXPECT_NE(FormatComparison(o).find("; no tolerance would pass"), std::string::npos);

  OutputComparison shape = SampleFailingOutput();
  shape.error = "shape mismatch";
  shape.actual_shape = {3, 2};
  EXPECT_EQ(FormatComparison(shape),
            "output \"y\" set 0 float[2,3]: shape mismatch (expected shape [2,3], got [3,2])");
}

TEST(FormatTest, DeclinesAndLatency) {
  std::vector<PlacementRecord> placements = {{"relu0", "Relu", "ref", {{"dnnl", "no double"}}, ""}};
  ASSERT_EQ(FormatDeclines(placements).size(), 1u);
  EXPECT_EQ(FormatDeclines(placements)[0],
            "node relu0 (Relu) ran on ref; dnnl declined: no double");

  RunRecord run = SampleRun();
  EXPECT_EQ(FormatLatencySummary(run.latency[0]),
            "median 12.3 ms vs baseline 10.1 ms (+21.8%, p=0.0001, threshold 10.0%, cv 2.00%)");
  EXPECT_EQ(FormatLatencySummary(run.latency[3]), "median 5.5 ms (no baseline)");
  EXPECT_EQ(LatencyDisplayName(run.latency[0]), "resnet_small[dnnl,4t]");
}

}  // namespace
}  // namespace onnxgate
