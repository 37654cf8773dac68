// NumPy .npz archives (numpy.savez and numpy.savez_compressed) read into tensors: the zip is read
// through libzip from memory, each member "<name>.npy" parsed as NumPy's .npy format 1.0-3.0
// (little-endian or single-byte element types, C order).
#pragma once

#include <map>
#include <string>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

// The most bytes one array may hold once decompressed; a larger member is refused unread.
inline constexpr uint64_t kMaxNpzArrayBytes = uint64_t{2} << 30;

// The arrays of the .npz file at `path`, by name (the member name without ".npy"). InvalidArgument
// names the file and, where it applies, the array: not a zip, a member that is not .npy, a
// big-endian or Fortran-order array, an element type ONNX has no type for, a data size that does
// not match the shape.
StatusOr<std::map<std::string, Tensor>> ReadNpzFile(const std::string& path);

// One .npy file's bytes as a tensor; `source` names it in messages.
StatusOr<Tensor> ParseNpy(const std::string& bytes, const std::string& source);

}  // namespace onnxgate
