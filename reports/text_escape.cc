// UTF-8 validation and XML escaping for report writers.
#include "reports/text_escape.h"

#include <algorithm>
#include <cstdio>

#include "reports/format.h"
#include "runtime/base/utf8.h"

namespace onnxgate {
namespace {

// "\u202e": an invisible character as visible text.
void AppendCodePointEscape(char32_t cp, std::string* out) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  *out += buf;
}

bool ShellSafe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_./:=,+@%-").find(c) != std::string_view::npos;
}

// How many bytes at `pos` a terminal must not get as they are (0: the character there is fine).
size_t HiddenLengthAt(std::string_view text, size_t pos) {
  size_t length;
  char32_t cp = DecodeUtf8At(text, pos, &length);
  return cp == kInvalidUtf8 || NeedsTerminalEscape(cp) ? length : 0;
}

// "$(printf '\342\200\256')": a command substitution that prints `bytes`.
std::string PrintfSubstitution(std::string_view bytes) {
  std::string out = "\"$(printf '";
  for (unsigned char c : bytes) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned>(c));
    out += buf;
  }
  return out + "')\"";
}

bool XmlAllows(char32_t cp) {
  if (cp == 0x9 || cp == 0xA || cp == 0xD) return true;
  if (cp < 0x20) return false;
  if (cp >= 0x7F && cp <= 0x9F) return false;  // discouraged by XML 1.0 section 2.2
  return cp != 0xFFFE && cp != 0xFFFF;
}

// Copies `text`, letting escape(cp, &out) write each code point instead (kInvalidUtf8 for each
// invalid byte sequence); a code point it returns false for is copied as it is.
template <typename EscapeFn>
std::string MapCodePoints(std::string_view text, EscapeFn escape) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t length;
    char32_t cp = DecodeUtf8At(text, pos, &length);
    if (!escape(cp, &out)) out.append(text, pos, length);
    pos += length;
  }
  return out;
}

// Keeps the code points keep(cp) accepts; invalid bytes become U+FFFD.
template <typename Keep>
std::string Filter(std::string_view text, Keep keep) {
  return MapCodePoints(text, [&keep](char32_t cp, std::string* out) {
    if (cp == kInvalidUtf8) {
      AppendUtf8(0xFFFD, out);
      return true;
    }
    return !keep(cp);  // true: dropped
  });
}

std::string Escape(std::string_view text, bool attribute) {
  std::string clean = SanitizeForXml(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      // A raw CR in character data would be turned into a newline by the parser.
      case '\r': out += "&#13;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string ToValidUtf8(std::string_view text) {
  return Filter(text, [](char32_t) { return true; });
}

bool IsInvisibleFormatCharacter(char32_t cp) {
  return cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF;
}

bool NeedsTerminalEscape(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || IsInvisibleFormatCharacter(cp);
}

std::string SanitizeForXml(std::string_view text) {
  return MapCodePoints(Filter(text, XmlAllows), [](char32_t cp, std::string* out) {
    if (!IsInvisibleFormatCharacter(cp)) return false;
    AppendCodePointEscape(cp, out);
    return true;
  });
}

std::string EscapeForTerminal(std::string_view text) {
  return MapCodePoints(ToValidUtf8(text), [](char32_t cp, std::string* out) {
    if (IsInvisibleFormatCharacter(cp)) {
      AppendCodePointEscape(cp, out);
    } else if (NeedsTerminalEscape(cp)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      *out += buf;
    } else {
      return false;
    }
    return true;
  });
}

std::string ShellWordForTerminal(std::string_view arg) {
  if (!arg.empty() && std::all_of(arg.begin(), arg.end(), ShellSafe)) return std::string(arg);
  // Newlines that end the word stay literal: a command substitution would drop them.
  size_t end = arg.size();
  while (end > 0 && arg[end - 1] == '\n') --end;
  std::string out;
  bool quoted = false;
  size_t pos = 0;
  while (pos < arg.size()) {
    size_t hidden = pos < end ? HiddenLengthAt(arg, pos) : 0;
    if (hidden == 0) {
      if (!quoted) out += "'";
      quoted = true;
      size_t length;
      DecodeUtf8At(arg, pos, &length);
      if (arg[pos] == '\'') {
        out += "'\\''";
      } else {
        out.append(arg.substr(pos, length));
      }
      pos += length;
      continue;
    }
    size_t run_end = pos;
    while (run_end < end && (hidden = HiddenLengthAt(arg, run_end)) > 0) run_end += hidden;
    // A run that ends in a newline takes the next character along, so the newline is not the
    // last byte its substitution prints.
    if (arg[run_end - 1] == '\n' && run_end < end) {
      size_t length;
      DecodeUtf8At(arg, run_end, &length);
      run_end += length;
    }
    if (quoted) out += "'";
    quoted = false;
    out += PrintfSubstitution(arg.substr(pos, run_end - pos));
    pos = run_end;
  }
  if (quoted) out += "'";
  return out.empty() ? "''" : out;
}

std::string XmlEscapeText(std::string_view text) { return Escape(text, /*attribute=*/false); }

std::string XmlEscapeAttribute(std::string_view text) { return Escape(text, /*attribute=*/true); }

std::string MarkdownCell(std::string_view text, size_t max_chars) {
  std::string line = OneLine(SanitizeForXml(text), max_chars);
  std::string out;
  for (char c : line) {
    if (std::string_view("\\`*_[]<>|~&#!").find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string MarkdownCode(std::string_view text) {
  std::string line = OneLine(SanitizeForXml(text), 200);
  if (line.empty() || line.find('`') != std::string::npos) return MarkdownCell(line, 200);
  std::string out = "`";
  for (char c : line) {
    if (c == '|') out.push_back('\\');
    out.push_back(c);
  }
  return out + "`";
}

}  // namespace onnxgate
