// The byte frames onnxgate's own processes send each other (a case worker's result, a model
// worker's values, a plugin probe's facts): fixed-width little-endian integers and
// length-prefixed byte strings, written by ByteWriter and read back by ByteReader, which never
// reads past the end of its bytes.
//
// Each frame's codec keeps its own layout and its own error words: ByteReader only says whether
// a read fit (false, and nothing consumed, when it did not), and where it stands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace onnxgate {

class ByteWriter {
 public:
  void U64(uint64_t v);
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F64(double v);
  void Bool(bool v) { out_.push_back(v ? '\1' : '\0'); }
  // The length as a U64, then the bytes.
  void String(std::string_view s);
  // The bytes as they are (a frame's magic).
  void Raw(std::string_view bytes) { out_.append(bytes); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads a frame written by ByteWriter. `bytes` must outlive the reader.
class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

  bool U64(uint64_t* v);
  bool I64(int64_t* v);
  bool F64(double* v);
  // One byte; a Bool is 0 or 1, and the caller judges any other value.
  bool Byte(uint8_t* v);
  // The next `n` bytes as they are.
  bool Bytes(uint64_t n, std::string* out);
  // A U64 length, then that many bytes.
  bool String(std::string* s);
  // `magic`, byte for byte.
  bool Magic(std::string_view magic);
  // A U64 count of elements that take at least `min_bytes` each (at least 1): false when the
  // bytes left cannot hold that many, so nothing is reserved for a count a frame cannot back.
  bool Count(uint64_t* n, size_t min_bytes);

  size_t pos() const { return pos_; }
  size_t size() const { return bytes_.size(); }
  size_t left() const { return bytes_.size() - pos_; }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

}  // namespace onnxgate
