// SHA-256 of bytes and files (OpenSSL libcrypto): a golden names the model it belongs to by the
// hash of the model file, so a stale golden is detected.
#pragma once

#include <string>
#include <string_view>

#include "runtime/base/status.h"

namespace onnxgate {

// Lowercase hex SHA-256 of `bytes`.
std::string Sha256Hex(std::string_view bytes);

// Lowercase hex SHA-256 of the file's bytes (its size when opened), read in chunks. The path may
// be a symbolic link but must name a regular file: InvalidArgument for a folder, FIFO or device,
// NotFound when it cannot be opened, DataLoss when reading fails part way.
StatusOr<std::string> Sha256File(const std::string& path);

// Whether `s` has the form of a Sha256Hex result (64 lowercase hex digits).
bool IsSha256Hex(const std::string& s);

}  // namespace onnxgate
