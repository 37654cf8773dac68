// Tests of StringNormalizer: stop words (case-sensitive or not), case changes on ASCII and
// non-ASCII UTF-8, the all-removed output, shapes, and a missing locale.
#include "runtime/ep/ref/kernels/text/string_normalizer.h"

#include "runtime/ep/ref/kernels/common/ref_test_helpers.h"
#include "runtime/ep/ref/ref_kernels.h"
#include "runtime/kernel/kernel_test_util.h"

namespace onnxgate::ref {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StringNormalizerTest : public ::testing::Test {
 protected:
  KernelRegistry registry_ = RegistryOf(&RegisterRefKernels);

  StatusOr<std::vector<Value>> Run(const std::string& attributes, Shape shape,
                                   const std::vector<std::string>& x) {
    return RunNode(registry_, "y = StringNormalizer <" + attributes + "> (x)", 10,
                   {TensorValue<std::string>(std::move(shape), x)});
  }

  // Case changes need the en_US locale (ci/install-deps.sh generates en_US.UTF-8).
  void SetUp() override {
    if (!LoadLocale("en_US").ok()) GTEST_SKIP() << "locale en_US is not installed";
  }
};

TEST_F(StringNormalizerTest, CaseSensitiveStopwordsThenUpperCase) {
  ASSERT_OK_AND_ASSIGN(auto y, Run("case_change_action = \"UPPER\", is_case_sensitive = 1, "
                                   "stopwords = [\"monday\"]",
                                   {4}, {"monday", "Monday", "tuesday", "Wed"}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(3));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("MONDAY", "TUESDAY", "WED"));
}

TEST_F(StringNormalizerTest, CaseInsensitiveStopwordsKeepTheOtherElementsAsTheyAre) {
  // is_case_sensitive defaults to 0; the stop word itself may be written in any case.
  ASSERT_OK_AND_ASSIGN(auto y, Run("stopwords = [\"MonDay\", \"x\"]", {1, 5},
                                   {"monday", "MONDAY", "Tuesday", "X", "monday2"}));
  EXPECT_THAT(DimsOf(y[0]), ElementsAre(1, 2));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("Tuesday", "monday2"));
}

TEST_F(StringNormalizerTest, EmptyStringsAreKept) {
  ASSERT_OK_AND_ASSIGN(auto y, Run("case_change_action = \"LOWER\"", {3}, {"A", "", "B"}));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("a", "", "b"));
}

TEST_F(StringNormalizerTest, AllRemovedGivesOneEmptyStringOfTheInputRank) {
  ASSERT_OK_AND_ASSIGN(auto one_d, Run("stopwords = [\"a\"]", {2}, {"a", "A"}));
  EXPECT_THAT(DimsOf(one_d[0]), ElementsAre(1));
  EXPECT_THAT(ValuesOf<std::string>(one_d[0]), ElementsAre(""));
  ASSERT_OK_AND_ASSIGN(
      auto two_d, Run("stopwords = [\"a\"], case_change_action = \"UPPER\"", {1, 2}, {"a", "A"}));
  EXPECT_THAT(DimsOf(two_d[0]), ElementsAre(1, 1));
  EXPECT_THAT(ValuesOf<std::string>(two_d[0]), ElementsAre(""));
  ASSERT_OK_AND_ASSIGN(auto empty, Run("is_case_sensitive = 1", {0}, {}));
  EXPECT_THAT(DimsOf(empty[0]), ElementsAre(1));
}

TEST_F(StringNormalizerTest, NonAsciiCaseChangesFollowTheLocale) {
  // One character maps to one character: the eszett has no single upper-case letter here.
  ASSERT_OK_AND_ASSIGN(auto upper, Run("case_change_action = \"UPPER\", locale = \"en_US\"", {3},
                                       {"Straße", "äöü", "ça été"}));
  EXPECT_THAT(ValuesOf<std::string>(upper[0]), ElementsAre("STRAßE", "ÄÖÜ", "ÇA ÉTÉ"));
  ASSERT_OK_AND_ASSIGN(auto lower, Run("case_change_action = \"LOWER\"", {2}, {"ÄÖ", "ΣΑΣ"}));
  EXPECT_THAT(ValuesOf<std::string>(lower[0]), ElementsAre("äö", "σασ"));
}

TEST_F(StringNormalizerTest, NonAsciiCaseInsensitiveStopwords) {
  ASSERT_OK_AND_ASSIGN(auto y, Run("stopwords = [\"über\"], case_change_action = \"LOWER\"", {3},
                                   {"ÜBER", "Über", "alles"}));
  EXPECT_THAT(ValuesOf<std::string>(y[0]), ElementsAre("alles"));
}

TEST_F(StringNormalizerTest, MissingLocaleIsAClearError) {
  auto y = Run("case_change_action = \"UPPER\", locale = \"xx_XX\"", {1}, {"a"});
  ASSERT_FALSE(y.ok());
  EXPECT_EQ(y.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(y.status().ToString(), HasSubstr("StringNormalizer node"));
  EXPECT_THAT(y.status().ToString(), HasSubstr("'xx_XX'"));
  EXPECT_THAT(y.status().ToString(), HasSubstr("locale-gen xx_XX.UTF-8"));
  // Case-insensitive stop words need the locale too.
  EXPECT_ERROR_CODE(Run("stopwords = [\"a\"], locale = \"xx_XX\"", {1}, {"a"}), kUnavailable);
  // A node that neither changes case nor folds it runs without the locale.
  ASSERT_OK_AND_ASSIGN(auto plain, Run("is_case_sensitive = 1, stopwords = [\"a\"], "
                                       "locale = \"xx_XX\"",
                                       {2}, {"a", "b"}));
  EXPECT_THAT(ValuesOf<std::string>(plain[0]), ElementsAre("b"));
}

TEST_F(StringNormalizerTest, RejectsBadAttributesShapesAndText) {
  EXPECT_ERROR_CODE(Run("case_change_action = \"TITLE\"", {1}, {"a"}), kInvalidArgument);
  EXPECT_ERROR_CODE(Run("is_case_sensitive = 2", {1}, {"a"}), kInvalidArgument);
  EXPECT_ERROR_CODE(Run("is_case_sensitive = 1", {2, 1}, {"a", "b"}), kInvalidArgument);
  EXPECT_ERROR_CODE(Run("is_case_sensitive = 1", {1, 1, 1}, {"a"}), kInvalidArgument);
  EXPECT_ERROR_CODE(Run("is_case_sensitive = 1", {}, {"a"}), kInvalidArgument);
  EXPECT_ERROR_CODE(Run("case_change_action = \"UPPER\"", {1}, {std::string("\xC3(")}),
                    kInvalidArgument);
  EXPECT_ERROR_CODE(Run("case_change_action = \"UPPER\"", {1}, {std::string("\xC0\x80")}),
                    kInvalidArgument);
}

TEST(ChangeCaseTest, CodePointsOfEveryLength) {
  auto loc = LoadLocale("C.UTF-8");
  if (!loc.ok()) GTEST_SKIP() << loc.status().ToString();
  // 1-, 2-, 3- and 4-byte sequences survive the round trip through wide characters.
  ASSERT_OK_AND_ASSIGN(std::string up, ChangeCase("aé€😀", CaseChange::kUpper, *loc));
  EXPECT_EQ(up, "AÉ€😀");
  ASSERT_OK_AND_ASSIGN(std::string same, ChangeCase("\xFF", CaseChange::kNone, *loc));
  EXPECT_EQ(same, "\xFF");
  EXPECT_FALSE(ChangeCase("\xE2\x82", CaseChange::kLower, *loc).ok());      // truncated
  EXPECT_FALSE(ChangeCase("\xED\xA0\x80", CaseChange::kLower, *loc).ok());  // surrogate
}

}  // namespace
}  // namespace onnxgate::ref
