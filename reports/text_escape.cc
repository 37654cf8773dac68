// UTF-8 validation and XML escaping for report writers.
#include "reports/text_escape.h"

#include <cstdio>

#include "reports/format.h"
#include "runtime/base/utf8.h"

namespace onnxgate {
namespace {

bool XmlAllows(char32_t cp) {
  if (cp == 0x9 || cp == 0xA || cp == 0xD) return true;
  if (cp < 0x20) return false;
  if (cp >= 0x7F && cp <= 0x9F) return false;  // discouraged by XML 1.0 section 2.2
  return cp != 0xFFFE && cp != 0xFFFF;
}

// Calls keep(cp) for each decoded code point; appends it (or U+FFFD for invalid bytes) when
// keep returns true.
template <typename Keep>
std::string Filter(std::string_view text, Keep keep) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t length;
    char32_t cp = DecodeUtf8At(text, pos, &length);
    if (cp == kInvalidUtf8) {
      AppendUtf8(0xFFFD, &out);
    } else if (keep(cp)) {
      out.append(text.substr(pos, length));
    }
    pos += length;
  }
  return out;
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

std::string SanitizeForXml(std::string_view text) { return Filter(text, XmlAllows); }

std::string EscapeForTerminal(std::string_view text) {
  std::string valid = ToValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  size_t pos = 0;
  while (pos < valid.size()) {
    size_t length;
    char32_t cp = DecodeUtf8At(valid, pos, &length);
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(valid, pos, length);
    }
    pos += length;
  }
  return out;
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
