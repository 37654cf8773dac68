// Tests of case selection: exact names (--case), globs, and how they combine.
#include "harness/selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

Suite SuiteOf(const std::string& name, const std::vector<std::string>& case_names) {
  Suite suite;
  suite.name = name;
  for (const std::string& c : case_names) {
    SuiteCase sc;
    sc.name = c;
    suite.cases.push_back(sc);
  }
  return suite;
}

std::vector<std::string> Names(const std::vector<const SuiteCase*>& cases) {
  std::vector<std::string> names;
  for (const SuiteCase* c : cases) names.push_back(c->name);
  return names;
}

TEST(SelectionTest, AnExactCaseIsNeitherAGlobNorAnExclusion) {
  const Suite suite =
      SuiteOf("s", {"glob*", "globber", "-leading-dash", "leading-dash", "[ab]", "a"});
  for (const std::string name : {"glob*", "-leading-dash", "[ab]", "a"}) {
    Selection selection;
    selection.cases = {{"s", name}};
    EXPECT_EQ(Names(SelectCases(suite, selection)), std::vector<std::string>{name});
  }
  // The same names as --filter globs: what the exact form is for.
  Selection glob;
  glob.filters = {"glob*"};
  EXPECT_EQ(SelectCases(suite, glob).size(), 2u);
  Selection dash;
  dash.filters = {"-leading-dash"};
  EXPECT_EQ(SelectCases(suite, dash).size(), 5u) << "a leading '-' excludes";
}

TEST(SelectionTest, ExactCasesNameTheirSuiteAndCombineWithTheOtherFilters) {
  const Suite first = SuiteOf("first", {"test_abs", "test_add"});
  const Suite second = SuiteOf("second", {"test_abs"});
  Selection selection;
  selection.cases = {{"second", "test_abs"}};
  EXPECT_TRUE(SelectCases(first, selection).empty());
  EXPECT_EQ(Names(SelectCases(second, selection)), std::vector<std::string>{"test_abs"});
  selection.cases.push_back({"first", "test_add"});
  selection.filters = {"-test_add"};
  EXPECT_TRUE(SelectCases(first, selection).empty()) << "the filters still apply";
}

TEST(SelectionTest, ParseExactCaseSplitsAtTheFirstSlash) {
  auto parsed = ParseExactCase("smoke/-x/y*");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->suite, "smoke");
  EXPECT_EQ(parsed->name, "-x/y*");
  for (const std::string bad : {"", "smoke", "/x", "smoke/"}) {
    auto refused = ParseExactCase(bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_THAT(refused.status().message(), HasSubstr("expected <suite>/<case name>"));
  }
}

TEST(SelectionTest, AnExactCaseThatDoesNotExistIsAnError) {
  const std::vector<Suite> suites = {SuiteOf("smoke", {"glob*"})};
  Selection selection;
  selection.cases = {{"smoke", "glob*"}};
  EXPECT_TRUE(CheckExactCasesExist(suites, selection).ok());
  selection.cases = {{"smoke", "globber"}};
  Status missing = CheckExactCasesExist(suites, selection);
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.message(), HasSubstr("suite 'smoke' has no case named exactly 'globber'"));
  selection.cases = {{"other", "glob*"}};
  EXPECT_THAT(CheckExactCasesExist(suites, selection).message(),
              HasSubstr("suite 'other' is not among the --suite given"));
}

}  // namespace
}  // namespace onnxgate
