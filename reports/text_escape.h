// Text cleaning for report formats and the console: valid UTF-8, XML 1.0's allowed characters,
// XML escaping, terminal-safe text.
#pragma once

#include <string>
#include <string_view>

namespace onnxgate {

// Returns `text` with every invalid UTF-8 sequence (stray continuation bytes, overlong forms,
// surrogates, truncated sequences, code points past U+10FFFF) replaced by U+FFFD, one per
// maximal invalid subpart, the way the Unicode standard recommends.
std::string ToValidUtf8(std::string_view text);

// ToValidUtf8, then drops the characters XML 1.0 forbids (controls other than tab, newline and
// carriage return; U+FFFE, U+FFFF) and those it discourages (DEL and the C1 controls), which
// usually are terminal colour codes or binary garbage in a message.
std::string SanitizeForXml(std::string_view text);

// For a terminal: valid UTF-8, and every control character (C0 including newline and tab, DEL,
// C1) written as \xNN, so a case name or message cannot move the cursor, recolour the console
// or forge a line of the summary.
std::string EscapeForTerminal(std::string_view text);

// Sanitized and escaped for XML character data: & < > become entities.
std::string XmlEscapeText(std::string_view text);

// Sanitized and escaped for a double-quoted XML attribute value. Tab, newline and carriage
// return become character references, so attribute-value normalization keeps them.
std::string XmlEscapeAttribute(std::string_view text);

// One line of plain text (OneLine, at most `max_chars`) safe inside a Markdown table cell: every
// Markdown or HTML metacharacter is backslash-escaped, which CommonMark allows for any ASCII
// punctuation.
std::string MarkdownCell(std::string_view text, size_t max_chars);

// A Markdown code span for a name; in a table, pipes still need their backslash (GFM).
std::string MarkdownCode(std::string_view text);

}  // namespace onnxgate
