// Tests for expectations: matching, applying to raw outcomes, and rewriting from a run.
#include "conformance/expectations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime/base/atomic_file.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

CaseRecord Rec(const std::string& name, Verdict outcome, int64_t opset = 13) {
  CaseRecord r;
  r.suite = "s";
  r.name = name;
  r.outcome = r.verdict = outcome;
  r.opset_imports[""] = opset;
  r.message = "msg of " + name;
  return r;
}

ExpectationFile File() {
  ExpectationFile f;
  f.ep = "ref";
  f.entries.push_back({"test_bernoulli*", "", ExpectedStatus::kXfail, "numpy random draws", {}, {}, false});
  f.entries.push_back({"test_old_op", "", ExpectedStatus::kUnsupported, "removed op", {}, 9, false});
  f.entries.push_back(
      {"test_random_*", "", ExpectedStatus::kNondeterministic, "unseeded draws", {}, {}, false});
  return f;
}

TEST(ExpectationsTest, ApplyTurnsPredictedOutcomesIntoExpectedVerdicts) {
  std::vector<CaseRecord> recs = {Rec("test_bernoulli_seed", Verdict::kFail),
                                  Rec("test_old_op", Verdict::kUnsupported, 7),
                                  Rec("test_old_op", Verdict::kUnsupported, 13),
                                  Rec("test_bernoulli", Verdict::kPass),
                                  Rec("test_abs", Verdict::kFail)};
  ApplyExpectations(File(), "ref.json", recs);
  EXPECT_EQ(recs[0].verdict, Verdict::kXfail);
  EXPECT_FALSE(IsUnexpected(recs[0], true));
  EXPECT_EQ(recs[1].expectation_reason, "removed op");
  EXPECT_FALSE(IsUnexpected(recs[1], true));
  EXPECT_TRUE(IsUnexpected(recs[2], true)) << "outside the opset range";
  EXPECT_EQ(recs[3].verdict, Verdict::kXpass);
  EXPECT_TRUE(IsUnexpected(recs[3], true));
  EXPECT_FALSE(IsUnexpected(recs[3], false));
  EXPECT_THAT(recs[3].message, HasSubstr("ref.json"));
  EXPECT_TRUE(IsUnexpected(recs[4], true));
}

TEST(ExpectationsTest, UpdateKeepsReasonsAndMarksNewEntries) {
  std::vector<CaseRecord> run = {Rec("test_bernoulli_seed", Verdict::kFail),
                                 Rec("test_new_fail", Verdict::kFail),
                                 Rec("test_old_op", Verdict::kPass)};
  ExpectationFile f = UpdateExpectations(File(), run);
  ASSERT_EQ(f.entries.size(), 2u);
  EXPECT_EQ(f.entries[0].case_pattern, "test_bernoulli*");
  EXPECT_EQ(f.entries[0].reason, "numpy random draws");
  EXPECT_EQ(f.entries[1].case_pattern, "test_new_fail");
  EXPECT_TRUE(f.entries[1].review);
  EXPECT_THAT(f.entries[1].reason, HasSubstr("msg of test_new_fail"));
  EXPECT_EQ(f.entries[1].suite, "s") << "a new entry applies to the suite it was seen in";
}

CaseRecord Compared(const std::string& name, Verdict outcome, const std::string& output_error) {
  CaseRecord r = Rec(name, outcome);
  OutputComparison o;
  o.output_name = "y";
  o.passed = outcome == Verdict::kPass;
  o.error = output_error;
  r.outputs.push_back(o);
  return r;
}

ExpectationFile NondeterministicFile() {
  ExpectationFile f;
  f.ep = "ref";
  f.entries.push_back(
      {"test_bernoulli", "", ExpectedStatus::kNondeterministic, "unseeded draws", {}, {}, false});
  return f;
}

TEST(ExpectationsTest, NondeterministicPredictsPassAndValueFailuresOnly) {
  std::vector<CaseRecord> recs = {Compared("test_bernoulli", Verdict::kPass, ""),
                                  Compared("test_bernoulli", Verdict::kFail, ""),
                                  Compared("test_bernoulli", Verdict::kFail, "shape mismatch"),
                                  Rec("test_bernoulli", Verdict::kCrash),
                                  Rec("test_bernoulli", Verdict::kUnsupported)};
  ApplyExpectations(NondeterministicFile(), "ref.json", recs);
  EXPECT_EQ(recs[0].verdict, Verdict::kPass);
  EXPECT_EQ(recs[0].expectation_reason, "unseeded draws");
  EXPECT_FALSE(IsUnexpected(recs[0], true));
  EXPECT_EQ(recs[1].verdict, Verdict::kXfail);
  EXPECT_FALSE(IsUnexpected(recs[1], true));
  EXPECT_EQ(recs[2].verdict, Verdict::kFail) << "a shape mismatch is a real failure";
  EXPECT_TRUE(IsUnexpected(recs[2], true));
  EXPECT_THAT(recs[2].message, HasSubstr("expected nondeterministic values"));
  EXPECT_TRUE(IsUnexpected(recs[3], true));
  EXPECT_TRUE(IsUnexpected(recs[4], true));
}

TEST(ExpectationsTest, UpdateKeepsNondeterministicEntriesWhetherTheDrawMatchedOrNot) {
  for (Verdict outcome : {Verdict::kPass, Verdict::kFail}) {
    ExpectationFile f =
        UpdateExpectations(NondeterministicFile(), {Compared("test_bernoulli", outcome, "")});
    ASSERT_EQ(f.entries.size(), 1u) << VerdictToString(outcome);
    EXPECT_EQ(f.entries[0].status, ExpectedStatus::kNondeterministic);
    EXPECT_EQ(f.entries[0].reason, "unseeded draws");
    EXPECT_FALSE(f.entries[0].review);
  }
  ExpectationFile crashed =
      UpdateExpectations(NondeterministicFile(), {Rec("test_bernoulli", Verdict::kCrash)});
  ASSERT_EQ(crashed.entries.size(), 1u);
  EXPECT_EQ(crashed.entries[0].status, ExpectedStatus::kXfail);
  EXPECT_TRUE(crashed.entries[0].review) << "a crash is no chance result: a person must look";
}

TEST(ExpectationsTest, RoundTripsThroughJsonAndRejectsEntriesWithoutReason) {
  std::string path = ::testing::TempDir() + "/expectations_test.json";
  ASSERT_TRUE(WriteExpectations(path, File()).ok());
  auto back = LoadExpectations(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->entries.size(), 3u);
  EXPECT_EQ(*back->entries[1].max_opset, 9);
  EXPECT_EQ(back->entries[2].status, ExpectedStatus::kNondeterministic);
  ASSERT_TRUE(WriteFileAtomically(path, R"({"entries": [{"case": "x", "status": "xfail"}]})").ok());
  auto bad = LoadExpectations(path);
  EXPECT_THAT(bad.status().message(), HasSubstr("entries[0] ('x').reason"));
  ASSERT_TRUE(
      WriteFileAtomically(path, R"({"entries": [{"case": "x", "status": "flaky", "reason": "r"}]})")
          .ok());
  auto bad_status = LoadExpectations(path);
  EXPECT_THAT(bad_status.status().message(), HasSubstr("entries[0] ('x').status"));
}

}  // namespace
}  // namespace onnxgate
