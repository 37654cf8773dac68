// Tests of StringConcat, StringSplit and RegexFullMatch: broadcasting and UTF-8 concatenation;
// delimiter, whitespace and maxsplit splitting with padding; full (not partial) regex matches,
// the suite's patterns, RE2-only syntax, long inputs, and refused patterns.
#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/kernels/text/regex_full_match.h"
#include "runtime/ep/ref/kernels/text/string_concat.h"
#include "runtime/ep/ref/kernels/text/string_split.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;

const KernelRegistry& Registry() {
  static const KernelRegistry* registry = new KernelRegistry(RegistryOf(&RegisterRefKernels));
  return *registry;
}

TEST(StringConcatTest, BroadcastsAndKeepsUtf8) {
  ASSERT_OK_AND_ASSIGN(auto z, RunNode(Registry(), "z = StringConcat(x, y)", 20,
                                       {TensorValue<std::string>({2, 1}, {"a", "\xc3\xa9"}),
                                        TensorValue<std::string>({3}, {"1", "", "\xe2\x82\xac"})}));
  EXPECT_THAT(DimsOf(z[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<std::string>(z[0]), ElementsAre("a1", "a", "a\xe2\x82\xac",
                                                       "\xc3\xa9"
                                                       "1",
                                                       "\xc3\xa9", "\xc3\xa9\xe2\x82\xac"));
  ASSERT_OK_AND_ASSIGN(
      z, RunNode(Registry(), "z = StringConcat(x, y)", 20,
                 {TensorValue<std::string>({}, {"p"}), TensorValue<std::string>({}, {"q"})}));
  EXPECT_THAT(ValuesOf<std::string>(z[0]), ElementsAre("pq"));
  EXPECT_ERROR_CODE(RunNode(Registry(), "z = StringConcat(x, y)", 20,
                            {TensorValue<std::string>({2}, {"a", "b"}),
                             TensorValue<std::string>({3}, {"a", "b", "c"})}),
                    kInvalidArgument);
}

TEST(StringSplitTest, SplitsOnTheDelimiterKeepingEmptyParts) {
  EXPECT_THAT(SplitString("a--b-", "-", std::nullopt), ElementsAre("a", "", "b", ""));
  EXPECT_THAT(SplitString("", "-", std::nullopt), ElementsAre(""));
  EXPECT_THAT(SplitString("a::b::c", "::", 1), ElementsAre("a", "b::c"));
  EXPECT_THAT(SplitString("abc", "-", 0), ElementsAre("abc"));
}

TEST(StringSplitTest, SplitsOnWhitespaceRuns) {
  EXPECT_THAT(SplitString("  a \t b\n", "", std::nullopt), ElementsAre("a", "b"));
  EXPECT_THAT(SplitString("   ", "", std::nullopt), ElementsAre());
  EXPECT_THAT(SplitString(" a b  c  ", "", 1), ElementsAre("a", "b  c  "));
  EXPECT_THAT(SplitString(" a ", "", 1), ElementsAre("a"));
}

TEST(StringSplitTest, PadsToTheLongestSplit) {
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(Registry(), "y, z = StringSplit <maxsplit = 2> (x)", 20,
                                       {TensorValue<std::string>({2}, {"a b c d", "e"})}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(2, 3));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("a", "b", "c d", "e", "", ""));
  EXPECT_THAT(ValuesOf<int64_t>(y[1]), ElementsAre(3, 1));
  ASSERT_OK_AND_ASSIGN(y, RunNode(Registry(), "y, z = StringSplit <delimiter = \".\"> (x)", 20,
                                  {TensorValue<std::string>({0}, {})}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(0, 0));
  EXPECT_THAT(DimsOf(y[1]), ElementsAre(0));
}

TEST(RegexFullMatchTest, MatchesWholeStrings) {
  ASSERT_OK_AND_ASSIGN(auto y,
                       RunNode(Registry(), "y = RegexFullMatch <pattern = \"a+b\"> (x)", 20,
                               {TensorValue<std::string>({4}, {"aab", "xaab", "aabx", ""})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, false, false, false));
}

TEST(RegexFullMatchTest, TheSuitesPatterns) {
  ASSERT_OK_AND_ASSIGN(
      auto y,
      RunNode(Registry(),
              "y = RegexFullMatch <pattern = \"www\\\\.[\\\\w.-]+\\\\.\\\\bcom\\\\b\"> (x)", 20,
              {TensorValue<std::string>({3},
                                        {"www.google.com", "www.facebook.com", "www.bbc.co.uk"})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, true, false));
  ASSERT_OK_AND_ASSIGN(
      y, RunNode(Registry(),
                 "y = RegexFullMatch <pattern = "
                 "\"(\\\\W|^)[\\\\w.\\\\-]{0,25}@(yahoo|gmail)\\\\.com(\\\\W|$)\"> (x)",
                 20,
                 {TensorValue<std::string>({2, 2}, {"account@gmail.com", "account@hotmail.com",
                                                    "not email", "account2@yahoo.com"})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, false, false, true));
}

TEST(RegexFullMatchTest, Re2Syntax) {
  // Inline flags, Unicode classes on UTF-8 text, and Python-style named groups are RE2 syntax.
  ASSERT_OK_AND_ASSIGN(auto y, RunNode(Registry(), "y = RegexFullMatch <pattern = \"(?i)ab+\"> (x)",
                                       20, {TensorValue<std::string>({2}, {"ABb", "ac"})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, false));
  ASSERT_OK_AND_ASSIGN(y,
                       RunNode(Registry(), "y = RegexFullMatch <pattern = \"\\\\pL+\"> (x)", 20,
                               {TensorValue<std::string>({3}, {"\xC3\xA9t\xC3\xA9", "a1", ""})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, false, false));
  ASSERT_OK_AND_ASSIGN(
      y, RunNode(Registry(), "y = RegexFullMatch <pattern = \"(?P<word>[a-z]+)-\\\\d\"> (x)", 20,
                 {TensorValue<std::string>({2}, {"abc-7", "abc-"})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, false));
  // The empty pattern matches only the empty string.
  ASSERT_OK_AND_ASSIGN(y, RunNode(Registry(), "y = RegexFullMatch <pattern = \"\"> (x)", 20,
                                  {TensorValue<std::string>({2}, {"", "a"})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(true, false));
}

TEST(RegexFullMatchTest, LongInputsMatchInLinearTime) {
  // A pattern that backtracking engines take exponential time on, over a 1 MiB string.
  const std::string long_a(1 << 20, 'a');
  ASSERT_OK_AND_ASSIGN(auto y,
                       RunNode(Registry(), "y = RegexFullMatch <pattern = \"(a|aa)*b\"> (x)", 20,
                               {TensorValue<std::string>({2}, {long_a, long_a + "b"})}));
  EXPECT_THAT(ValuesOf<bool>(y[0]), ElementsAre(false, true));
}

TEST(RegexFullMatchTest, RefusedPatterns) {
  // Backreferences and lookaround are not RE2 syntax; an unclosed group is no syntax at all.
  const Value x = TensorValue<std::string>({1}, {"aa"});
  for (const char* node : {"y = RegexFullMatch <pattern = \"(a)\\\\1\"> (x)",
                           "y = RegexFullMatch <pattern = \"a(?=a)a\"> (x)",
                           "y = RegexFullMatch <pattern = \"a(\"> (x)"}) {
    EXPECT_ERROR_CODE(RunNode(Registry(), node, 20, {x}), kInvalidArgument);
  }
  auto out = RunNode(Registry(), "y = RegexFullMatch <pattern = \"x[b-a]\"> (x)", 20, {x});
  EXPECT_ERROR_CODE(out, kInvalidArgument);
  EXPECT_THAT(out.status().message(), ::testing::HasSubstr("'pattern' \"x[b-a]\""));
}

}  // namespace
}  // namespace onnxgate::ref
