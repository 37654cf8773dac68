// Files that appear whole or not at all: write to a temporary name beside the target, then
// rename, so a killed run never leaves a half-written report, golden or baseline.
#pragma once

#include <functional>
#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

// Writes `contents` to `path` atomically, creating missing parent folders.
Status WriteFileAtomically(const std::string& path, const std::string& contents);

// For writers that need a file name (HDF5): calls `write(temp_path)`, then renames temp_path to
// `path` when it returned OK, and removes temp_path otherwise.
Status WriteThroughTempFile(const std::string& path,
                            const std::function<Status(const std::string& temp_path)>& write);

// Reads a whole file; NotFound naming the path when it cannot be opened.
StatusOr<std::string> ReadFile(const std::string& path);

}  // namespace onnxgate
