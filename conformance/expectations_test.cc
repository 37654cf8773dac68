// Tests for expectations: matching, applying to raw outcomes, and rewriting from a run.
#include "conformance/expectations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

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
  f.entries.push_back({"test_bernoulli*",
                       "",
                       ExpectedStatus::kXfail,
                       Verdict::kFail,
                       "numpy random draws",
                       {},
                       {},
                       false});
  f.entries.push_back({"test_old_op",
                       "",
                       ExpectedStatus::kUnsupported,
                       Verdict::kFail,
                       "removed op",
                       {},
                       9,
                       false});
  f.entries.push_back({"test_random_*",
                       "",
                       ExpectedStatus::kNondeterministic,
                       Verdict::kFail,
                       "unseeded draws",
                       {},
                       {},
                       false});
  return f;
}

TEST(ExpectationsTest, ApplyTurnsPredictedOutcomesIntoExpectedVerdicts) {
  std::vector<CaseRecord> recs = {
      Rec("test_bernoulli_seed", Verdict::kFail), Rec("test_old_op", Verdict::kUnsupported, 7),
      Rec("test_old_op", Verdict::kUnsupported, 13), Rec("test_bernoulli", Verdict::kPass),
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
  f.entries.push_back({"test_bernoulli",
                       "",
                       ExpectedStatus::kNondeterministic,
                       Verdict::kFail,
                       "unseeded draws",
                       {},
                       {},
                       false});
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
  EXPECT_THAT(bad.status().message(), HasSubstr("entries[0].reason: is missing"));
  ASSERT_TRUE(
      WriteFileAtomically(path, R"({"entries": [{"case": "x", "status": "flaky", "reason": "r"}]})")
          .ok());
  auto bad_status = LoadExpectations(path);
  EXPECT_THAT(bad_status.status().message(),
              HasSubstr("entries[0].status: expected \"unsupported\", \"xfail\" or "
                        "\"nondeterministic\", got \"flaky\""));
}

// Loads `text` as an expectations file; the error message ("" when it loads).
std::string LoadError(const std::string& text) {
  std::string path = ::testing::TempDir() + "/expectations_types_test.json";
  EXPECT_TRUE(WriteFileAtomically(path, text).ok());
  auto loaded = LoadExpectations(path);
  return loaded.ok() ? "" : loaded.status().message();
}

TEST(ExpectationsTest, AFieldOfTheWrongJsonTypeIsAnErrorNamingFileEntryAndField) {
  struct Bad {
    std::string fields;    // after "case": "x"
    std::string expected;  // in the message
  };
  const std::vector<Bad> bad = {
      {R"("status": 5, "reason": "r")", "entries[0].status: expected a string, got 5"},
      {R"("status": "xfail", "reason": "r", "suite": 5)",
       "entries[0].suite: expected a string, got 5"},
      {R"("status": "xfail", "reason": "r", "min_opset": "13")",
       R"(entries[0].min_opset: expected an integer, got "13")"},
      {R"("status": "xfail", "reason": "r", "max_opset": 13.5)",
       "entries[0].max_opset: expected an integer, got 13.5"},
      {R"("status": "xfail", "reason": "r", "min_opset": 18446744073709551615)",
       "entries[0].min_opset: integer 18446744073709551615 is out of range"},
      {R"("status": "xfail", "reason": "r", "review": "yes")",
       R"(entries[0].review: expected true or false, got "yes")"},
      {R"("status": "xfail", "reason": ["r"])",
       "entries[0].reason: expected a string, got an array"},
      {R"("status": "xfail", "reason": "r", "verdict": 3)",
       "entries[0].verdict: expected a string, got 3"},
      {R"("status": "xfail", "reason": "r", "verdict": "PASS")",
       R"(entries[0].verdict: expected "FAIL", "CRASH", "TIMEOUT" or "UNRESOLVED", got "PASS")"},
      {R"("status": "unsupported", "reason": "r", "verdict": "CRASH")",
       "entries[0].verdict: only an xfail entry names a verdict"},
      {R"("status": null, "reason": "r")", "entries[0].status: expected a string, got null"},
      {R"("status": "xfail", "reason": "r", "min_opset": 14, "max_opset": 13)",
       "min_opset 14 is above max_opset 13"},
      {R"("status": "xfail", "reason": "r", "suite": "")", "entries[0].suite: is empty"},
      {R"("status": "xfail", "reason": "r", "min_opest": 13)",
       "entries[0].min_opest: unknown field"},
  };
  for (const Bad& b : bad) {
    const std::string message = LoadError(R"({"entries": [{"case": "x", )" + b.fields + "}]}");
    EXPECT_THAT(message, HasSubstr("expectations_types_test.json: ")) << b.fields;
    EXPECT_THAT(message, HasSubstr(b.expected)) << b.fields;
  }
  EXPECT_THAT(LoadError(R"({"entries": [{"case": 5, "status": "xfail", "reason": "r"}]})"),
              HasSubstr("entries[0].case: expected a string, got 5"));
  EXPECT_THAT(LoadError(R"({"entries": [7]})"), HasSubstr("entries[0]: expected an object, got 7"));
  EXPECT_THAT(LoadError(R"({"ep": 5, "entries": []})"),
              HasSubstr("expectations_types_test.json: ep: expected a string, got 5"));
  EXPECT_THAT(
      LoadError(R"({"schema_version": "1", "entries": []})"),
      HasSubstr("expectations_types_test.json: schema_version: expected an integer, got \"1\""));
  EXPECT_THAT(LoadError(R"({"entries": {}})"),
              HasSubstr("expectations_types_test.json: entries: expected an array, got an object"));
  EXPECT_THAT(LoadError(R"([1])"),
              HasSubstr("expectations_types_test.json: expected an object, got an array"));
  EXPECT_EQ(LoadError(R"({"ep": "ref", "schema": "onnxgate-expectations", "schema_version": 1,
      "entries": [{"case": "x", "status": "xfail", "verdict": "crash", "reason": "r", "suite": "s",
                   "min_opset": 7, "max_opset": 13, "review": true}]})"),
            "");
}

// Only a missing file means "no expectations"; a file that is there but cannot be read or parsed
// is an error, and a FIFO is refused without blocking.
TEST(ExpectationsTest, OnlyAMissingFileIsEmpty) {
  const std::string dir = ::testing::TempDir() + "/expectations_or_empty";
  std::filesystem::create_directories(dir);
  auto empty = LoadExpectationsOrEmpty(dir + "/none.json", "ref");
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ(empty->ep, "ref");
  EXPECT_TRUE(empty->entries.empty());
  ASSERT_TRUE(WriteFileAtomically(dir + "/bad.json", "{\"entries\": 5}").ok());
  auto bad = LoadExpectationsOrEmpty(dir + "/bad.json", "ref");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("bad.json: entries: expected an array, got 5"));
  const std::string fifo = dir + "/fifo.json";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto refused = LoadExpectationsOrEmpty(fifo, "ref");
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("fifo.json: is a FIFO"));
  std::filesystem::remove(fifo);
}

// The expectation files in the JSON readers' fuzz regression folder (each once aborted the
// process) are refused with a message naming the entry and the field.
TEST(ExpectationsTest, FuzzRegressionInputsAreRefusedCleanly) {
  const std::filesystem::path dir =
      std::filesystem::path(ONNXGATE_SOURCE_DIR) / "fuzz" / "regressions" / "json_readers";
  size_t seen = 0;
  for (const auto& input : std::filesystem::directory_iterator(dir)) {
    if (input.path().filename().string().rfind("expectations-", 0) != 0) continue;
    ++seen;
    auto loaded = LoadExpectations(input.path().string());
    ASSERT_FALSE(loaded.ok()) << input.path();
    EXPECT_THAT(loaded.status().message(), HasSubstr(input.path().string() + ": entries[0]"));
    EXPECT_THAT(loaded.status().message(), HasSubstr(": expected "));
  }
  EXPECT_GE(seen, 4u);
}

ExpectationFile XfailFile(Verdict verdict) {
  ExpectationFile f;
  f.ep = "ref";
  f.entries.push_back({"test_x", "", ExpectedStatus::kXfail, verdict, "known bug", {}, {}, false});
  return f;
}

TEST(ExpectationsTest, AnXfailEntryPredictsOnlyItsVerdict) {
  for (Verdict outcome : {Verdict::kCrash, Verdict::kTimeout, Verdict::kUnresolved}) {
    CaseRecord r = Rec("test_x", outcome);
    ApplyExpectation(XfailFile(Verdict::kFail), "ref.json", r);
    EXPECT_EQ(r.verdict, outcome) << VerdictToString(outcome);
    EXPECT_TRUE(IsUnexpected(r, false)) << VerdictToString(outcome);
    EXPECT_TRUE(r.expectation_reason.empty());
    EXPECT_THAT(r.message, HasSubstr(std::string("ref.json expected FAIL, got ") +
                                     VerdictToString(outcome) + " (entry 'test_x': known bug)"));
  }
  CaseRecord fail = Rec("test_x", Verdict::kFail);
  ApplyExpectation(XfailFile(Verdict::kFail), "ref.json", fail);
  EXPECT_EQ(fail.verdict, Verdict::kXfail);
  EXPECT_FALSE(IsUnexpected(fail, true));

  CaseRecord crash = Rec("test_x", Verdict::kCrash);
  ApplyExpectation(XfailFile(Verdict::kCrash), "ref.json", crash);
  EXPECT_EQ(crash.verdict, Verdict::kXfail);
  EXPECT_EQ(crash.expectation_reason, "known bug");
  EXPECT_FALSE(IsUnexpected(crash, true));
  CaseRecord wrong = Rec("test_x", Verdict::kFail);
  ApplyExpectation(XfailFile(Verdict::kCrash), "ref.json", wrong);
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_TRUE(IsUnexpected(wrong, false));
  EXPECT_THAT(wrong.message, HasSubstr("expected CRASH, got FAIL"));
  CaseRecord passed = Rec("test_x", Verdict::kPass);
  ApplyExpectation(XfailFile(Verdict::kTimeout), "ref.json", passed);
  EXPECT_EQ(passed.verdict, Verdict::kXpass);
  EXPECT_THAT(passed.message, HasSubstr("expects TIMEOUT (known bug)"));
}

TEST(ExpectationsTest, UpdateWritesTheVerdictAnEntryPredicts) {
  ExpectationFile f = UpdateExpectations(
      XfailFile(Verdict::kFail), {Rec("test_x", Verdict::kCrash), Rec("test_y", Verdict::kTimeout),
                                  Rec("test_z", Verdict::kFail)});
  ASSERT_EQ(f.entries.size(), 3u);
  EXPECT_EQ(f.entries[0].verdict, Verdict::kCrash);
  EXPECT_EQ(f.entries[0].reason, "known bug");
  EXPECT_TRUE(f.entries[0].review) << "the entry predicted FAIL: a person must look";
  EXPECT_EQ(f.entries[1].verdict, Verdict::kTimeout);
  EXPECT_EQ(f.entries[2].verdict, Verdict::kFail);
  const std::string text = RenderExpectations(f);
  EXPECT_THAT(text, HasSubstr(R"("verdict": "CRASH")"));
  EXPECT_THAT(text, HasSubstr(R"("verdict": "TIMEOUT")"));
  EXPECT_EQ(text.find(R"("verdict": "FAIL")"), std::string::npos) << "FAIL is the default";

  std::string path = ::testing::TempDir() + "/expectations_verdict_test.json";
  ASSERT_TRUE(WriteExpectations(path, f).ok());
  auto back = LoadExpectations(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->entries[0].verdict, Verdict::kCrash);
  EXPECT_EQ(back->entries[2].verdict, Verdict::kFail);
  // A glob entry keeps covering the outcome it names, not another one.
  ExpectationFile glob;
  glob.entries.push_back(
      {"test_*", "", ExpectedStatus::kXfail, Verdict::kCrash, "crashes", {}, {}, false});
  ExpectationFile kept =
      UpdateExpectations(glob, {Rec("test_a", Verdict::kCrash), Rec("test_b", Verdict::kFail)});
  ASSERT_EQ(kept.entries.size(), 2u);
  EXPECT_EQ(kept.entries[0].case_pattern, "test_*");
  EXPECT_EQ(kept.entries[1].case_pattern, "test_b");
  EXPECT_EQ(kept.entries[1].verdict, Verdict::kFail);
  EXPECT_TRUE(kept.entries[1].review);
}

}  // namespace
}  // namespace onnxgate
