// SHA-256 through OpenSSL's EVP interface, and the model-files hash built on it.
#include "golden/sha256.h"

#include <openssl/evp.h>

#include <algorithm>
#include <map>
#include <memory>

#include "runtime/base/check.h"
#include "runtime/base/contained_file.h"

namespace onnxgate {

namespace {

constexpr uint64_t kChunk = uint64_t{1} << 20;

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

StatusOr<std::string> HashOpenFile(const ContainedFile& file) {
  Sha256Hasher hasher;
  for (uint64_t offset = 0; offset < file.size(); offset += kChunk) {
    ONNXGATE_ASSIGN_OR_RETURN(
        std::string chunk, file.ReadRange(offset, std::min(kChunk, file.size() - offset), kChunk));
    hasher.Update(chunk);
  }
  return hasher.HexDigest();
}

StatusOr<std::string> NormalizedLocation(const std::string& location) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> parts, SplitContainedPath(location));
  std::string normalized;
  for (const std::string& part : parts) normalized += (normalized.empty() ? "" : "/") + part;
  return normalized;
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

StatusOr<std::string> Sha256File(const std::string& path) {
  // A regular file only: a FIFO or device named as a model would block or never end.
  ONNXGATE_ASSIGN_OR_RETURN(ContainedFile file,
                            OpenRegularFile(path, kNoFileSizeLimit, "file to hash"));
  return HashOpenFile(file);
}

bool IsSha256Hex(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

StatusOr<std::string> CombineModelFilesSha256(const std::string& model_sha256,
                                              std::vector<ExternalFileSha256> files) {
  if (!IsSha256Hex(model_sha256)) {
    return InvalidArgument("model sha256 '" + model_sha256 + "' is not 64 lowercase hex digits");
  }
  std::map<std::string, std::string> by_location;  // byte order of the normalized location
  for (ExternalFileSha256& f : files) {
    if (!IsSha256Hex(f.sha256)) {
      return InvalidArgument("sha256 '" + f.sha256 + "' of external data file '" + f.location +
                             "' is not 64 lowercase hex digits");
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::string location, NormalizedLocation(f.location));
    auto [it, inserted] = by_location.emplace(location, f.sha256);
    if (!inserted && it->second != f.sha256) {
      return InvalidArgument("external data file '" + location +
                             "' is given twice with different hashes");
    }
  }
  std::string text = "onnxgate-model-files-v1\nmodel " + model_sha256 + "\n";
  for (const auto& [location, sha256] : by_location) {
    text += "file " + sha256 + " " + std::to_string(location.size()) + " " + location + "\n";
  }
  return Sha256Hex(text);
}

StatusOr<std::string> Sha256ModelFiles(const std::string& model_sha256,
                                       const std::string& model_dir,
                                       const std::vector<std::string>& locations) {
  std::vector<ExternalFileSha256> files;
  if (!locations.empty()) {
    ONNXGATE_ASSIGN_OR_RETURN(ContainedDir dir, ContainedDir::Open(model_dir));
    std::map<std::string, std::string> hashed;  // normalized location -> sha256, each file once
    for (const std::string& location : locations) {
      ONNXGATE_ASSIGN_OR_RETURN(std::string normalized, NormalizedLocation(location));
      if (hashed.count(normalized) > 0) continue;
      ONNXGATE_ASSIGN_OR_RETURN(
          ContainedFile file,
          dir.OpenFile(normalized, kNoFileSizeLimit, "external data '" + location + "'"));
      ONNXGATE_ASSIGN_OR_RETURN(hashed[normalized], HashOpenFile(file));
    }
    for (auto& [location, sha256] : hashed) files.push_back({location, sha256});
  }
  return CombineModelFilesSha256(model_sha256, std::move(files));
}

}  // namespace onnxgate
