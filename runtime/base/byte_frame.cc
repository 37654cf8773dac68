// ByteWriter and ByteReader: little-endian integers and length-prefixed strings.
#include "runtime/base/byte_frame.h"

#include <cstring>

namespace onnxgate {

void ByteWriter::U64(uint64_t v) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out_.append(bytes, 8);
}

void ByteWriter::F64(double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, 8);
  U64(bits);
}

void ByteWriter::String(std::string_view s) {
  U64(s.size());
  out_.append(s);
}

bool ByteReader::U64(uint64_t* v) {
  if (left() < 8) return false;
  uint64_t out = 0;
  for (int i = 0; i < 8; ++i) {
    out |= static_cast<uint64_t>(static_cast<unsigned char>(bytes_[pos_ + i])) << (8 * i);
  }
  *v = out;
  pos_ += 8;
  return true;
}

bool ByteReader::I64(int64_t* v) {
  uint64_t u = 0;
  if (!U64(&u)) return false;
  *v = static_cast<int64_t>(u);
  return true;
}

bool ByteReader::F64(double* v) {
  uint64_t bits = 0;
  if (!U64(&bits)) return false;
  std::memcpy(v, &bits, 8);
  return true;
}

bool ByteReader::Byte(uint8_t* v) {
  if (left() < 1) return false;
  *v = static_cast<uint8_t>(bytes_[pos_++]);
  return true;
}

bool ByteReader::Bytes(uint64_t n, std::string* out) {
  if (n > left()) return false;
  out->assign(bytes_.substr(pos_, n));
  pos_ += n;
  return true;
}

bool ByteReader::String(std::string* s) {
  const size_t start = pos_;
  uint64_t n = 0;
  if (U64(&n) && Bytes(n, s)) return true;
  pos_ = start;
  return false;
}

bool ByteReader::Magic(std::string_view magic) {
  if (bytes_.substr(pos_, magic.size()) != magic) return false;
  pos_ += magic.size();
  return true;
}

bool ByteReader::Count(uint64_t* n, size_t min_bytes) {
  const size_t start = pos_;
  uint64_t count = 0;
  if (!U64(&count)) return false;
  if (count > left() / (min_bytes == 0 ? 1 : min_bytes)) {
    pos_ = start;
    return false;
  }
  *n = count;
  return true;
}

}  // namespace onnxgate
