// SHA-256 through OpenSSL's EVP interface, over bytes and over open files in pieces.
#include "runtime/base/sha256.h"

#include <openssl/evp.h>

#include <algorithm>

#include "runtime/base/check.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {

namespace {

std::string ToHex(const unsigned char* digest, unsigned int size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 0xf];
  }
  return hex;
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // SHA-256 over memory only fails when libcrypto itself is broken.
  ONNXGATE_CHECK(EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) == 1);
  return ToHex(digest, size);
}

Sha256Hasher::Sha256Hasher() : ctx_(EVP_MD_CTX_new()) {
  ONNXGATE_CHECK(ctx_ != nullptr);
  ONNXGATE_CHECK(EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) == 1);
}

Sha256Hasher::~Sha256Hasher() { EVP_MD_CTX_free(ctx_); }

void Sha256Hasher::Update(std::string_view bytes) {
  ONNXGATE_CHECK(EVP_DigestUpdate(ctx_, bytes.data(), bytes.size()) == 1);
}

std::string Sha256Hasher::HexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  ONNXGATE_CHECK(EVP_DigestFinal_ex(ctx_, digest, &size) == 1);
  return ToHex(digest, size);
}

StatusOr<std::string> Sha256OfFile(const ContainedFile& file) {
  Sha256Hasher hasher;
  for (uint64_t offset = 0; offset < file.size(); offset += kSha256ChunkBytes) {
    ONNXGATE_ASSIGN_OR_RETURN(
        std::string chunk, file.ReadRange(offset, std::min(kSha256ChunkBytes, file.size() - offset),
                                          kSha256ChunkBytes));
    hasher.Update(chunk);
  }
  return hasher.HexDigest();
}

StatusOr<std::string> Sha256File(const std::string& path) {
  // A regular file only: a FIFO or device named as a model would block or never end.
  ONNXGATE_ASSIGN_OR_RETURN(ContainedFile file,
                            OpenRegularFile(path, kNoFileSizeLimit, "file to hash"));
  return Sha256OfFile(file);
}

bool IsSha256Hex(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace onnxgate
