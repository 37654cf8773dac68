// UTF-8 code point decoding and encoding.
#include "runtime/base/utf8.h"

#include <cstdint>

namespace onnxgate {

char32_t DecodeUtf8At(std::string_view text, size_t pos, size_t* length) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t lead = byte(pos);
  *length = 1;
  if (lead < 0x80) return lead;

  int count;                     // continuation bytes that follow
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
    return kInvalidUtf8;  // continuation byte, C0/C1 overlong lead, or F5..FF
  }
  for (int i = 1; i <= count; ++i) {
    if (pos + i >= text.size()) return kInvalidUtf8;
    const uint8_t b = byte(pos + i);
    const uint8_t min = (i == 1) ? lo : 0x80;
    const uint8_t max = (i == 1) ? hi : 0xBF;
    if (b < min || b > max) return kInvalidUtf8;
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

}  // namespace onnxgate
