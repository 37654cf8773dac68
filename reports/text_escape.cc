// UTF-8 validation and XML escaping for report writers.
#include "reports/text_escape.h"

#include <cstdint>

namespace onnxgate {
namespace {

constexpr char32_t kInvalid = 0xFFFFFFFF;

// Decodes one code point at text[pos]. Sets `length` to the bytes consumed: the whole sequence
// when valid, else the maximal subpart that could start a valid sequence (at least 1 byte), and
// returns kInvalid for those.
char32_t DecodeOne(std::string_view text, size_t pos, size_t* length) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(pos);
  *length = 1;
  if (lead < 0x80) return lead;

  int count;       // continuation bytes that follow
  uint8_t lo = 0x80, hi = 0xBF;  // valid range of the first continuation byte
  char32_t cp;
  if (lead >= 0xC2 && lead <= 0xDF) {
    count = 1, cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    count = 2, cp = lead & 0x0F;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    count = 3, cp = lead & 0x07;
    if (lead == 0xF0) lo = 0x90;  // no overlong forms
    if (lead == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return kInvalid;  // continuation byte, C0/C1 overlong lead, or F5..FF
  }
  for (int i = 1; i <= count; ++i) {
    if (pos + i >= text.size()) return kInvalid;
    const uint8_t b = byte(pos + i);
    const uint8_t min = (i == 1) ? lo : 0x80;
    const uint8_t max = (i == 1) ? hi : 0xBF;
    if (b < min || b > max) return kInvalid;
    cp = (cp << 6) | (b & 0x3F);
    *length = i + 1;
  }
  return cp;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

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
    char32_t cp = DecodeOne(text, pos, &length);
    if (cp == kInvalid) {
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

std::string XmlEscapeText(std::string_view text) { return Escape(text, /*attribute=*/false); }

std::string XmlEscapeAttribute(std::string_view text) { return Escape(text, /*attribute=*/true); }

}  // namespace onnxgate
