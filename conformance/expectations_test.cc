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
}

TEST(ExpectationsTest, RoundTripsThroughJsonAndRejectsEntriesWithoutReason) {
  std::string path = ::testing::TempDir() + "/expectations_test.json";
  ASSERT_TRUE(WriteExpectations(path, File()).ok());
  auto back = LoadExpectations(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->entries.size(), 2u);
  EXPECT_EQ(*back->entries[1].max_opset, 9);
  ASSERT_TRUE(WriteFileAtomically(path, R"({"entries": [{"case": "x", "status": "xfail"}]})").ok());
  auto bad = LoadExpectations(path);
  EXPECT_THAT(bad.status().message(), HasSubstr("entries[0] ('x').reason"));
}

}  // namespace
}  // namespace onnxgate
