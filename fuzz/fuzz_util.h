// What the fuzz targets share: a private scratch folder per fuzzing process, for the readers
// that take a path rather than bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace onnxgate::fuzz {

// Writes `size` bytes to <scratch folder>/<name> (replacing it) and returns the path. The folder
// is made once per process under $TMPDIR (or /tmp) and removed at exit.
std::string WriteScratchFile(const std::string& name, const uint8_t* data, size_t size);

// The scratch folder itself: an empty folder nothing else writes to, for external data to
// resolve against (and fail to find).
const std::string& ScratchDir();

}  // namespace onnxgate::fuzz
