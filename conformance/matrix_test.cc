// Tests for the conformance matrix and operator coverage.
#include "conformance/matrix.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;

CaseRecord Rec(const std::string& name, std::map<std::string, int64_t> ops, Verdict v) {
  CaseRecord r;
  r.name = name;
  r.ep = "ref";
  r.op_versions = std::move(ops);
  r.verdict = r.outcome = v;
  return r;
}

TEST(MatrixTest, CountsEveryCaseUnderEachOpItUses) {
  std::vector<CaseRecord> cases = {Rec("a", {{"Conv", 11}}, Verdict::kPass),
                                   Rec("b", {{"Conv", 11}, {"Relu", 14}}, Verdict::kFail),
                                   Rec("c", {{"Conv", 1}}, Verdict::kXfail)};
  std::vector<MatrixCell> m = BuildMatrix(cases);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].op, "Conv");
  EXPECT_EQ(m[0].since_version, 1);
  EXPECT_EQ(m[0].counts[Verdict::kXfail], 1);
  EXPECT_EQ(m[1].counts[Verdict::kPass], 1);
  EXPECT_EQ(m[1].counts[Verdict::kFail], 1);
  EXPECT_THAT(m[1].failing_cases, ElementsAre("b"));
  EXPECT_EQ(m[2].op, "Relu");
}

TEST(MatrixTest, AFailureAttributedToOneOpCountsUnderThatOpAlone) {
  CaseRecord attributed = Rec("model", {{"Conv", 11}, {"Relu", 14}, {"Add", 14}}, Verdict::kFail);
  attributed.first_divergence = DivergenceRecord{"relu_3", "Relu", "r3", 0, 0.5, 1.0, "differs"};
  // An attribution to an op the case's versions do not name cannot place it: every op counts.
  CaseRecord unplaced = Rec("other", {{"Conv", 11}, {"Add", 14}}, Verdict::kFail);
  unplaced.first_divergence = DivergenceRecord{"n", "Mystery", "v", 0, 1, 1, "differs"};
  std::vector<MatrixCell> m = BuildMatrix({attributed, unplaced});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].op, "Add");
  EXPECT_THAT(m[0].failing_cases, ElementsAre("other"));
  EXPECT_EQ(m[1].op, "Conv");
  EXPECT_THAT(m[1].failing_cases, ElementsAre("other"));
  EXPECT_EQ(m[2].op, "Relu");
  EXPECT_THAT(m[2].failing_cases, ElementsAre("model"));
}

TEST(MatrixTest, AMetricJudgedFailureBlamesTheModelUnlessAnOpIsNamed) {
  OutputComparison judged;
  judged.metrics = {{"cosine", 0.98, 0.999, true, false, -0.019}};
  CaseRecord model = Rec("int8", {{"Conv", 11}, {"Relu", 14}}, Verdict::kFail);
  model.outputs = {judged};
  CaseRecord named = Rec("int8-layerwise", {{"Conv", 11}, {"Relu", 14}}, Verdict::kFail);
  named.outputs = {judged};
  named.first_divergence = DivergenceRecord{"conv", "Conv", "c", 0, 0.5, 1.0, "differs"};
  CaseRecord passing = Rec("int8-ok", {{"Relu", 14}}, Verdict::kPass);
  passing.outputs = {judged};
  std::vector<MatrixCell> m = BuildMatrix({model, named, passing});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].op, "Conv");
  EXPECT_THAT(m[0].failing_cases, ElementsAre("int8-layerwise"));
  EXPECT_EQ(m[1].op, "Relu");
  EXPECT_TRUE(m[1].failing_cases.empty());
  EXPECT_EQ(m[1].counts[Verdict::kPass], 1);
}

TEST(MatrixTest, CoverageSplitsVersionsWithAndWithoutCases) {
  std::vector<OperatorVersions> ops = {{"", "Conv", {1, 11}, false}, {"", "Celu", {12}, false}};
  std::vector<CoverageRecord> cov = BuildCoverage(ops, {Rec("a", {{"Conv", 11}}, Verdict::kPass)});
  ASSERT_EQ(cov.size(), 2u);
  EXPECT_THAT(cov[0].covered_versions, ElementsAre(11));
  EXPECT_THAT(cov[0].uncovered_versions, ElementsAre(1));
  EXPECT_TRUE(cov[1].covered_versions.empty());
}

}  // namespace
}  // namespace onnxgate
