// Tests of UTF-8 repair, XML character filtering and escaping.
#include "reports/text_escape.h"

#include <gtest/gtest.h>

namespace onnxgate {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

TEST(ToValidUtf8Test, KeepsValidText) {
  const std::string text = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 plain";
  EXPECT_EQ(ToValidUtf8(text), text);
  EXPECT_EQ(ToValidUtf8(""), "");
}

TEST(ToValidUtf8Test, ReplacesEachMaximalInvalidSubpart) {
  EXPECT_EQ(ToValidUtf8("a\xFF" "b"), "a" + kReplacement + "b");
  EXPECT_EQ(ToValidUtf8("\x80\x80"), kReplacement + kReplacement);    // stray continuations
  EXPECT_EQ(ToValidUtf8("\xC0\xAF"), kReplacement + kReplacement);    // overlong '/'
  EXPECT_EQ(ToValidUtf8("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
  EXPECT_EQ(ToValidUtf8("\xE2\x82x"), kReplacement + "x");           // truncated, one subpart
  EXPECT_EQ(ToValidUtf8("x\xF0\x9F\x98"), "x" + kReplacement);       // cut at the end
  EXPECT_EQ(ToValidUtf8("\xF4\x90\x80\x80"),                          // past U+10FFFF
            kReplacement + kReplacement + kReplacement + kReplacement);
}

TEST(SanitizeForXmlTest, DropsForbiddenCharactersAndKeepsWhitespace) {
  EXPECT_EQ(SanitizeForXml(std::string("a\x00" "b", 3)), "ab");
  EXPECT_EQ(SanitizeForXml("\x1B[31mred\x1B[0m\x7F"), "[31mred[0m");
  EXPECT_EQ(SanitizeForXml("tab\there\nnew\rcr"), "tab\there\nnew\rcr");
  EXPECT_EQ(SanitizeForXml("c1\xC2\x85" "end"), "c1end");        // U+0085, a C1 control
  EXPECT_EQ(SanitizeForXml("nc\xEF\xBF\xBF" "end"), "ncend");    // U+FFFF
  EXPECT_EQ(SanitizeForXml("bad\xFE"), "bad" + kReplacement);
}

TEST(XmlEscapeTest, EscapesMarkupInTextAndAttributes) {
  EXPECT_EQ(XmlEscapeText("a<b>&\"c\"'"), "a&lt;b&gt;&amp;\"c\"'");
  EXPECT_EQ(XmlEscapeAttribute("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
  EXPECT_EQ(XmlEscapeAttribute("l1\nl2\tx\r"), "l1&#10;l2&#9;x&#13;");
  EXPECT_EQ(XmlEscapeText("l1\nl2\r"), "l1\nl2&#13;");
  EXPECT_EQ(XmlEscapeText("\x01<\x02"), "&lt;");
}

TEST(TextEscapeTest, TerminalTextHasNoControlCharacters) {
  EXPECT_EQ(EscapeForTerminal("test_\x1b[2J\x1b[31mred\rPASS\n\x7f\xc2\x9b caf\xc3\xa9"),
            "test_\\x1b[2J\\x1b[31mred\\x0dPASS\\x0a\\x7f\\x9b caf\xc3\xa9");
  EXPECT_EQ(EscapeForTerminal("bad \xff"), "bad \xEF\xBF\xBD");
  EXPECT_EQ(EscapeForTerminal("plain text"), "plain text");
}

}  // namespace
}  // namespace onnxgate
