// UTF-8 encoding and decoding of single code points, strict as the Unicode standard defines it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onnxgate {

// What DecodeUtf8At returns for bytes that do not start a valid sequence.
inline constexpr char32_t kInvalidUtf8 = 0xFFFFFFFF;

// Decodes the code point at text[pos] (pos < text.size()). Sets `length` to the bytes consumed:
// the whole sequence when it is valid; otherwise the maximal subpart that could start a valid
// sequence (at least 1 byte), and returns kInvalidUtf8. Overlong forms, UTF-16 surrogates,
// code points past U+10FFFF and truncated sequences are invalid.
char32_t DecodeUtf8At(std::string_view text, size_t pos, size_t* length);

// Appends the UTF-8 encoding of the code point `cp` (at most U+10FFFF) to `out`.
void AppendUtf8(char32_t cp, std::string* out);

}  // namespace onnxgate
