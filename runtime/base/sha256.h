// SHA-256 of bytes and files (OpenSSL libcrypto): goldens carry the hash of their own values, so a
// corrupted one is detected, and name the model they belong to by its hash (runtime/model/
// model_file.h), so a stale one is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/base/status.h"

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX

namespace onnxgate {

class ContainedFile;

// Lowercase hex SHA-256 of `bytes`.
std::string Sha256Hex(std::string_view bytes);

// SHA-256 fed in pieces: Update any number of times, then HexDigest once.
class Sha256Hasher {
 public:
  Sha256Hasher();
  ~Sha256Hasher();
  Sha256Hasher(const Sha256Hasher&) = delete;
  Sha256Hasher& operator=(const Sha256Hasher&) = delete;

  void Update(std::string_view bytes);
  // Lowercase hex digest of everything given to Update.
  std::string HexDigest();

 private:
  evp_md_ctx_st* ctx_;
};

// The size of the pieces files are hashed in: a file of any size costs this much memory.
inline constexpr uint64_t kSha256ChunkBytes = uint64_t{1} << 20;

// Lowercase hex SHA-256 of an open file's bytes (its size when opened), read in pieces of
// kSha256ChunkBytes. DataLoss when the file shrank since it was opened.
StatusOr<std::string> Sha256OfFile(const ContainedFile& file);

// Lowercase hex SHA-256 of the file's bytes (its size when opened), read in chunks. The path may
// be a symbolic link but must name a regular file: InvalidArgument for a folder, FIFO or device,
// NotFound when it cannot be opened, DataLoss when reading fails part way.
StatusOr<std::string> Sha256File(const std::string& path);

// Whether `s` has the form of a Sha256Hex result (64 lowercase hex digits).
bool IsSha256Hex(const std::string& s);

}  // namespace onnxgate
