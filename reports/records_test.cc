// Tests of verdict names and counting.
#include "reports/records.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

TEST(VerdictTest, EveryVerdictRoundTripsThroughItsName) {
  for (Verdict v : kAllVerdicts) {
    StatusOr<Verdict> parsed = VerdictFromString(VerdictToString(v));
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    EXPECT_EQ(*parsed, v);
  }
  EXPECT_STREQ(VerdictToString(Verdict::kUnsupported), "UNSUPPORTED");
  EXPECT_STREQ(VerdictToString(Verdict::kXpass), "XPASS");
}

TEST(VerdictTest, LowerCaseIsAcceptedAndUnknownNamesAreErrors) {
  StatusOr<Verdict> xfail = VerdictFromString("xfail");
  ASSERT_TRUE(xfail.ok());
  EXPECT_EQ(*xfail, Verdict::kXfail);
  StatusOr<Verdict> bad = VerdictFromString("PASSED");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("\"PASSED\""), std::string::npos);
  EXPECT_NE(bad.status().message().find("UNRESOLVED"), std::string::npos);
}

TEST(LatencyVerdictTest, NamesRoundTrip) {
  for (LatencyVerdict v :
       {LatencyVerdict::kRegression, LatencyVerdict::kImprovement, LatencyVerdict::kUnchanged,
        LatencyVerdict::kInconclusive, LatencyVerdict::kNoBaseline}) {
    StatusOr<LatencyVerdict> parsed = LatencyVerdictFromString(LatencyVerdictToString(v));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, v);
  }
  EXPECT_STREQ(LatencyVerdictToString(LatencyVerdict::kNoBaseline), "no-baseline");
  EXPECT_FALSE(LatencyVerdictFromString("Regression").ok());
}

TEST(CountVerdictsTest, CountsEachVerdict) {
  std::vector<CaseRecord> cases(5);
  cases[0].verdict = Verdict::kFail;
  cases[1].verdict = Verdict::kFail;
  cases[2].verdict = Verdict::kXfail;
  VerdictCounts counts = CountVerdicts(cases);
  EXPECT_EQ(counts[Verdict::kPass], 2);
  EXPECT_EQ(counts[Verdict::kFail], 2);
  EXPECT_EQ(counts[Verdict::kXfail], 1);
  EXPECT_EQ(counts[Verdict::kCrash], 0);
  EXPECT_EQ(counts.total(), 5);
  EXPECT_EQ(CountVerdicts({}).total(), 0);
}

TEST(FallbackSummaryTest, CountsNodesByOpAndShapeOnlyApartPerTarget) {
  RunRecord run;
  run.selection.eps = {"dnnl", "ort+cpu"};
  CaseRecord a;
  a.ep = "ort+cpu";
  a.fallbacks = {{"s", "Shape", "cpu", true}, {"n1", "Neg", "cpu", false}};
  CaseRecord b;
  b.ep = "ort+cpu";
  b.fallbacks = {{"n2", "Neg", "cpu", false}};
  CaseRecord c;
  c.ep = "dnnl";
  c.fallbacks = {{"g", "Gather", "ref", true}};
  CaseRecord none;
  none.ep = "dnnl";
  run.cases = {a, b, c, none};
  const auto by_target = FallbacksByTarget(run);
  ASSERT_EQ(by_target.size(), 2u);
  EXPECT_EQ(by_target[0].first, "dnnl");
  EXPECT_EQ(by_target[0].second.cases, 1);
  EXPECT_EQ(by_target[1].first, "ort+cpu");
  EXPECT_EQ(by_target[1].second.cases, 2);
  EXPECT_EQ(DescribeFallbacks(by_target[1].second),
            "3 nodes (ops: Neg x2, Shape x1), of which 1 shape-only");
  EXPECT_EQ(DescribeFallbacks(SummarizeFallbacks(c.fallbacks)),
            "1 node (ops: Gather x1), of which 1 shape-only");
  EXPECT_EQ(DescribeFallbacks(by_target[1].second, 1),
            "3 nodes (ops: Neg x2, +1 more), of which 1 shape-only");
}

}  // namespace
}  // namespace onnxgate
