// Tests of UTF-8 repair, XML character filtering and escaping.
#include "reports/text_escape.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "runtime/base/utf8.h"

namespace onnxgate {
namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

TEST(ToValidUtf8Test, KeepsValidText) {
  const std::string text = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 plain";
  EXPECT_EQ(ToValidUtf8(text), text);
  EXPECT_EQ(ToValidUtf8(""), "");
}

TEST(ToValidUtf8Test, ReplacesEachMaximalInvalidSubpart) {
  EXPECT_EQ(ToValidUtf8("a\xFF"
                        "b"),
            "a" + kReplacement + "b");
  EXPECT_EQ(ToValidUtf8("\x80\x80"), kReplacement + kReplacement);  // stray continuations
  EXPECT_EQ(ToValidUtf8("\xC0\xAF"), kReplacement + kReplacement);  // overlong '/'
  EXPECT_EQ(ToValidUtf8("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // surrogate
  EXPECT_EQ(ToValidUtf8("\xE2\x82x"), kReplacement + "x");      // truncated, one subpart
  EXPECT_EQ(ToValidUtf8("x\xF0\x9F\x98"), "x" + kReplacement);  // cut at the end
  EXPECT_EQ(ToValidUtf8("\xF4\x90\x80\x80"),                    // past U+10FFFF
            kReplacement + kReplacement + kReplacement + kReplacement);
}

TEST(SanitizeForXmlTest, DropsForbiddenCharactersAndKeepsWhitespace) {
  EXPECT_EQ(SanitizeForXml(std::string("a\x00"
                                       "b",
                                       3)),
            "ab");
  EXPECT_EQ(SanitizeForXml("\x1B[31mred\x1B[0m\x7F"), "[31mred[0m");
  EXPECT_EQ(SanitizeForXml("tab\there\nnew\rcr"), "tab\there\nnew\rcr");
  EXPECT_EQ(SanitizeForXml("c1\xC2\x85"
                           "end"),
            "c1end");  // U+0085, a C1 control
  EXPECT_EQ(SanitizeForXml("nc\xEF\xBF\xBF"
                           "end"),
            "ncend");  // U+FFFF
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

// U+202E (right-to-left override) and U+200B (zero-width space) in UTF-8.
const std::string kRlo = "\xE2\x80\xAE";
const std::string kZwsp = "\xE2\x80\x8B";

TEST(TextEscapeTest, TerminalTextHasNoBidiOrZeroWidthCharacters) {
  EXPECT_EQ(EscapeForTerminal("test_" + kRlo + "fdp.exe" + kZwsp), "test_\\u202efdp.exe\\u200b");
  // Every bidi control, zero-width character and separator.
  for (char32_t cp :
       {0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C,
        0x202D, 0x202E, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF}) {
    std::string text;
    AppendUtf8(cp, &text);
    char expected[16];
    std::snprintf(expected, sizeof expected, "\\u%04x", static_cast<unsigned>(cp));
    EXPECT_EQ(EscapeForTerminal(text), expected) << expected;
    EXPECT_EQ(SanitizeForXml(text), expected) << expected;
    EXPECT_TRUE(NeedsTerminalEscape(cp)) << expected;
  }
  // Visible neighbours stay as they are: Arabic, Hebrew, and the dashes and per mille sign
  // around the block.
  for (const std::string& text : {std::string("\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A"),
                                  std::string("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D"),
                                  std::string("\xE2\x80\x90\xE2\x80\x94\xE2\x80\xB0")}) {
    EXPECT_EQ(EscapeForTerminal(text), text);
    EXPECT_EQ(SanitizeForXml(text), text);
  }
}

TEST(TextEscapeTest, ReportTextShowsBidiCharactersInsteadOfObeyingThem) {
  const std::string name = "relu_" + kRlo + "lanif" + kZwsp;
  EXPECT_EQ(XmlEscapeText(name), "relu_\\u202elanif\\u200b");
  EXPECT_EQ(XmlEscapeAttribute(name), "relu_\\u202elanif\\u200b");
  EXPECT_EQ(MarkdownCode(name), "`relu_\\u202elanif\\u200b`");
  EXPECT_EQ(MarkdownCell(name, 100), "relu\\_\\\\u202elanif\\\\u200b");
}

// What /bin/sh makes of `word`: the bytes it passes as one argument.
std::string ThroughShell(const std::string& word) {
  FILE* pipe = ::popen(("printf '%s' " + word).c_str(), "r");
  if (pipe == nullptr) return "<popen failed>";
  std::string out;
  char buf[256];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ::pclose(pipe);
  return out;
}

TEST(ShellWordForTerminalTest, PassesTheExactBytesAndShowsNothingATerminalObeys) {
  EXPECT_EQ(ShellWordForTerminal("--case=smoke/relu_1"), "--case=smoke/relu_1");
  EXPECT_EQ(ShellWordForTerminal(""), "''");
  EXPECT_EQ(ShellWordForTerminal("glob*"), "'glob*'");
  EXPECT_EQ(ShellWordForTerminal("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellWordForTerminal("a" + kRlo + "b"), "'a'\"$(printf '\\342\\200\\256')\"'b'");
  const std::vector<std::string> words = {
      "glob*",       "-x",    "it's",   "a b", "$(id)`id`\"", "a" + kRlo + "b" + kZwsp,
      "tab\there",   "nl\nx", "nl\n\n", "\n",  "esc\x1b[2J",  "bad\xFF",
      "caf\xC3\xA9", "%s\\n", "\n%'"};
  for (const std::string& word : words) {
    const std::string quoted = ShellWordForTerminal(word);
    EXPECT_EQ(ThroughShell(quoted), word) << quoted;
    // Only newlines that end the word stay raw (a command substitution would drop them).
    std::string shown = quoted;
    while (!shown.empty() && (shown.back() == '\n' || shown.back() == '\'')) shown.pop_back();
    EXPECT_EQ(EscapeForTerminal(shown), shown) << quoted;
  }
}

}  // namespace
}  // namespace onnxgate
