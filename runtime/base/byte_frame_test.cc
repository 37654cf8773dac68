// Tests of ByteWriter and ByteReader: every field round-trips, and no read goes past the end.
#include "runtime/base/byte_frame.h"

#include <gtest/gtest.h>

#include <limits>

namespace onnxgate {
namespace {

TEST(ByteFrameTest, EveryFieldRoundTrips) {
  ByteWriter w;
  w.Raw("MAGI");
  w.U64(std::numeric_limits<uint64_t>::max());
  w.I64(-5);
  w.F64(-0.25);
  w.Bool(true);
  w.String(std::string("a\0b", 3));
  const std::string bytes = w.Take();
  EXPECT_EQ(bytes.size(), 4u + 8 + 8 + 8 + 1 + 8 + 3);

  ByteReader r(bytes);
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
  uint8_t b = 0;
  std::string s;
  EXPECT_TRUE(r.Magic("MAGI"));
  EXPECT_TRUE(r.U64(&u));
  EXPECT_TRUE(r.I64(&i));
  EXPECT_TRUE(r.F64(&d));
  EXPECT_TRUE(r.Byte(&b));
  EXPECT_TRUE(r.String(&s));
  EXPECT_EQ(u, std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(i, -5);
  EXPECT_EQ(d, -0.25);
  EXPECT_EQ(b, 1);
  EXPECT_EQ(s, std::string("a\0b", 3));
  EXPECT_EQ(r.left(), 0u);
}

TEST(ByteFrameTest, IntegersAreLittleEndian) {
  ByteWriter w;
  w.U64(0x0102);
  EXPECT_EQ(w.Take(), std::string("\x02\x01\0\0\0\0\0\0", 8));
}

TEST(ByteFrameTest, ReadsPastTheEndFailAndConsumeNothing) {
  ByteWriter w;
  w.U64(100);  // a string length that the frame does not back
  w.Raw("abc");
  const std::string bytes = w.Take();
  ByteReader r(bytes);
  std::string s;
  EXPECT_FALSE(r.String(&s));
  EXPECT_EQ(r.pos(), 0u);
  EXPECT_FALSE(r.Magic("NOPE"));
  uint64_t n = 0;
  EXPECT_FALSE(r.Count(&n, 1));  // 100 elements of a byte each; 3 bytes left after the count
  EXPECT_EQ(r.pos(), 0u);
  ByteReader short_reader(std::string_view(bytes).substr(0, 5));
  EXPECT_FALSE(short_reader.U64(&n));
  EXPECT_EQ(short_reader.left(), 5u);
}

TEST(ByteFrameTest, CountsWithinTheBytesLeftPass) {
  ByteWriter w;
  w.U64(2);
  w.I64(7);
  w.I64(8);
  const std::string bytes = w.Take();
  ByteReader r(bytes);
  uint64_t n = 0;
  ASSERT_TRUE(r.Count(&n, 8));
  EXPECT_EQ(n, 2u);
  EXPECT_FALSE(ByteReader(bytes).Count(&n, 9));
}

}  // namespace
}  // namespace onnxgate
