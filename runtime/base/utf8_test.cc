#include "runtime/base/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace onnxgate {
namespace {

// Decodes `text` whole; kInvalidUtf8 at the first invalid byte.
std::u32string DecodeAll(std::string_view text) {
  std::u32string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t length;
    out.push_back(DecodeUtf8At(text, pos, &length));
    pos += length;
  }
  return out;
}

TEST(Utf8Test, RoundTripsOneCodePointOfEachLength) {
  for (char32_t cp : {U'A', U'\u00e9', U'\u20ac', U'\U0001F600', U'\U0010FFFF'}) {
    std::string encoded;
    AppendUtf8(cp, &encoded);
    size_t length;
    EXPECT_EQ(DecodeUtf8At(encoded, 0, &length), cp);
    EXPECT_EQ(length, encoded.size());
  }
  std::string euro;
  AppendUtf8(0x20AC, &euro);
  EXPECT_EQ(euro, "\xE2\x82\xAC");
}

TEST(Utf8Test, RejectsOverlongSurrogateOutOfRangeAndTruncated) {
  size_t length;
  EXPECT_EQ(DecodeUtf8At("\xC0\xAF", 0, &length), kInvalidUtf8);          // overlong '/'
  EXPECT_EQ(DecodeUtf8At("\xE0\x80\xAF", 0, &length), kInvalidUtf8);      // overlong
  EXPECT_EQ(DecodeUtf8At("\xED\xA0\x80", 0, &length), kInvalidUtf8);      // U+D800
  EXPECT_EQ(DecodeUtf8At("\xF4\x90\x80\x80", 0, &length), kInvalidUtf8);  // past U+10FFFF
  EXPECT_EQ(DecodeUtf8At("\xE2\x82", 0, &length), kInvalidUtf8);          // truncated
  EXPECT_EQ(length, 2u);                                                  // the maximal subpart
  EXPECT_EQ(DecodeUtf8At("\x80", 0, &length), kInvalidUtf8);              // stray continuation
  EXPECT_EQ(length, 1u);
}

TEST(Utf8Test, DecodesAMixedString) {
  EXPECT_EQ(DecodeAll("a\xC3\xA9\xE2\x82\xAC"), std::u32string(U"a\u00e9\u20ac"));
  EXPECT_EQ(DecodeAll("a\xFF"
                      "b"),
            (std::u32string{U'a', kInvalidUtf8, U'b'}));
}

}  // namespace
}  // namespace onnxgate
