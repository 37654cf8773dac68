// SHA-256 of bytes and files (OpenSSL libcrypto): a golden names the model it belongs to by the
// hash of the model file and of every external data file the model names, so a stale golden is
// detected, and carries the hash of its own values, so a corrupted one is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX

namespace onnxgate {

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

// Lowercase hex SHA-256 of the file's bytes (its size when opened), read in chunks. The path may
// be a symbolic link but must name a regular file: InvalidArgument for a folder, FIFO or device,
// NotFound when it cannot be opened, DataLoss when reading fails part way.
StatusOr<std::string> Sha256File(const std::string& path);

// Whether `s` has the form of a Sha256Hex result (64 lowercase hex digits).
bool IsSha256Hex(const std::string& s);

// One external data file of a model: where the model says it is, relative to the model's folder,
// and the SHA-256 of its bytes.
struct ExternalFileSha256 {
  std::string location;
  std::string sha256;
};

// A golden's model_files_sha256: one hash over the model file and every external data file it
// names, so that replacing a weights file makes the golden stale just as editing the model does.
// It is the SHA-256 of the text
//   "onnxgate-model-files-v1\n"
//   "model <model_sha256>\n"
//   "file <sha256> <length of location in bytes> <location>\n"   (one line per external file)
// with each location normalized ("./w/a.bin" -> "w/a.bin"), duplicates dropped, in byte order.
// The importer and the case runner both compute it through this function. InvalidArgument for a
// location that is absolute, climbs out with "..", or is empty (SplitContainedPath), or a digest
// that is not 64 lowercase hex digits.
StatusOr<std::string> CombineModelFilesSha256(const std::string& model_sha256,
                                              std::vector<ExternalFileSha256> files);

// Hashes every file of `locations` beneath the folder `model_dir` and combines them with
// `model_sha256` as CombineModelFilesSha256 does. The files are opened through
// runtime/base/contained_file.h, as the runtime opens external data: no symbolic link on the way,
// no hard link, a regular file (a FIFO or device is refused without blocking); any size, read in
// chunks. Errors name the location and the folder.
StatusOr<std::string> Sha256ModelFiles(const std::string& model_sha256,
                                       const std::string& model_dir,
                                       const std::vector<std::string>& locations);

}  // namespace onnxgate
