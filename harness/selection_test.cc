// Tests of case selection: exact names (--case), globs, and how they combine.
#include "harness/selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

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

// Sets the shard variables of CI systems for one test (unset: nullopt) and puts them back after.
class ShardVariables {
 public:
  using Values = std::map<std::string, std::string>;
  explicit ShardVariables(const Values& values) {
    for (const char* name : {"GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS", "CI_NODE_INDEX",
                             "CI_NODE_TOTAL", "JOB_COMPLETION_INDEX"}) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
      unsetenv(name);
    }
    for (const auto& [name, value] : values) setenv(name.c_str(), value.c_str(), 1);
  }
  ~ShardVariables() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST(ShardEnvironmentTest, GitLabsOneBasedNodeIndexIsTheShard) {
  ShardVariables env(ShardVariables::Values{{"CI_NODE_INDEX", "3"}, {"CI_NODE_TOTAL", "4"}});
  Selection s;
  ASSERT_TRUE(ApplyShardEnvironment(s).ok());
  EXPECT_EQ(s.shard_index, 2);
  EXPECT_EQ(s.shard_count, 4);
}

TEST(ShardEnvironmentTest, GoogleTestsVariablesComeFirst) {
  ShardVariables env(ShardVariables::Values{{"GTEST_SHARD_INDEX", "0"},
                                            {"GTEST_TOTAL_SHARDS", "2"},
                                            {"CI_NODE_INDEX", "3"},
                                            {"CI_NODE_TOTAL", "4"}});
  Selection s;
  ASSERT_TRUE(ApplyShardEnvironment(s).ok());
  EXPECT_EQ(s.shard_index, 0);
  EXPECT_EQ(s.shard_count, 2);
}

TEST(ShardEnvironmentTest, AKubernetesCompletionIndexNeedsTheCountFlag) {
  ShardVariables env(ShardVariables::Values{{"JOB_COMPLETION_INDEX", "5"}});
  Selection alone;
  ASSERT_TRUE(ApplyShardEnvironment(alone).ok());
  EXPECT_EQ(alone.shard_count, 1) << "no count, no sharding";
  Selection counted;
  counted.shard_count = 8;
  ASSERT_TRUE(ApplyShardEnvironment(counted).ok());
  EXPECT_EQ(counted.shard_index, 5);
  Selection flagged;
  flagged.shard_count = 8;
  flagged.shard_index = 1;
  ASSERT_TRUE(ApplyShardEnvironment(flagged, /*index_given=*/true).ok());
  EXPECT_EQ(flagged.shard_index, 1) << "the flag wins";
}

TEST(ShardEnvironmentTest, FlagsWinOverEveryVariable) {
  ShardVariables env(
      ShardVariables::Values{{"GTEST_SHARD_INDEX", "1"}, {"GTEST_TOTAL_SHARDS", "2"}});
  Selection s;
  s.shard_count = 3;
  s.shard_index = 2;
  ASSERT_TRUE(ApplyShardEnvironment(s, true).ok());
  EXPECT_EQ(s.shard_index, 2);
  EXPECT_EQ(s.shard_count, 3);
}

TEST(ShardEnvironmentTest, BadValuesNameTheVariable) {
  {
    ShardVariables env(ShardVariables::Values{{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "4"}});
    Selection s;
    EXPECT_THAT(ApplyShardEnvironment(s).message(),
                HasSubstr("CI_NODE_INDEX 0 is not in [1, 5) (CI_NODE_TOTAL 4)"));
  }
  {
    ShardVariables env(
        ShardVariables::Values{{"GTEST_SHARD_INDEX", "x"}, {"GTEST_TOTAL_SHARDS", "4"}});
    Selection s;
    EXPECT_THAT(ApplyShardEnvironment(s).message(), HasSubstr("GTEST_SHARD_INDEX is not a number"));
  }
  {
    ShardVariables env(ShardVariables::Values{{"JOB_COMPLETION_INDEX", "9"}});
    Selection s;
    s.shard_count = 4;
    EXPECT_THAT(ApplyShardEnvironment(s).message(),
                HasSubstr("JOB_COMPLETION_INDEX 9 is not in [0, --shard-count 4)"));
  }
}

}  // namespace
}  // namespace onnxgate
