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

// Invisible characters that reorder or hide the text around them: the bidirectional embeddings,
// overrides, isolates and marks (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), the
// zero-width characters (U+200B-U+200D, U+2060, U+FEFF), the other invisible format characters
// of U+2061-U+206F, and the line and paragraph separators (U+2028, U+2029). A name holding
// U+202E shows its end first: "test_<U+202E>fdp.exe" reads as "test_exe.pdf".
bool IsInvisibleFormatCharacter(char32_t cp);

// Whether a terminal must not get `cp` as it is: a control character (C0 including newline and
// tab, DEL, C1) or an invisible format character.
bool NeedsTerminalEscape(char32_t cp);

// ToValidUtf8, then drops the characters XML 1.0 forbids (controls other than tab, newline and
// carriage return; U+FFFE, U+FFFF) and those it discourages (DEL and the C1 controls), which
// usually are terminal colour codes or binary garbage in a message, and writes every invisible
// format character as the visible text \uxxxx, so a name cannot reorder the line it is shown
// in (Markdown, HTML and JUnit text all pass through here).
std::string SanitizeForXml(std::string_view text);

// For a terminal: valid UTF-8, every control character (C0 including newline and tab, DEL, C1)
// written as \xNN and every invisible format character as \uxxxx, so a case name or message
// cannot move the cursor, recolour the console, forge a line of the summary or reorder it.
std::string EscapeForTerminal(std::string_view text);

// `arg` as one word of a POSIX sh command line that a terminal can show as it is: bare when it
// holds only [A-Za-z0-9_./:=,+@%-], else single-quoted, with every character NeedsTerminalEscape
// refuses (and every invalid UTF-8 byte) written as "$(printf '\ooo')", its bytes in octal: the
// line holds no control or bidi character, and sh still passes the exact bytes. A command
// substitution drops trailing newlines, so newlines that end `arg` stay literal inside the
// quotes (EscapeForTerminal shows them as \x0a).
std::string ShellWordForTerminal(std::string_view arg);

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
