// External data of initializers: resolves a TensorProto's `location` beneath the model's folder
// and reads the bytes, through runtime/base/contained_file.h, which closes the hazards of a name
// a model gives: a location that leaves the folder (absolute, "..", a symbolic link anywhere on
// the way, a folder swapped for a link while it is opened, a hard link to a file elsewhere) and a
// FIFO, device or folder named as data. Here the byte count (the `length` key, else the rest of
// the file after `offset`) must equal what the tensor's dims and data_type declare, and is checked
// before a byte is allocated: a huge or sparse file costs nothing.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/status.h"

namespace onnx {
class TensorProto;
}

namespace onnxgate {

class ContainedDir;

// Checks every rule without reading the bytes: keys (one each; location required; offset and
// length non-negative decimals), a known data type other than STRING and valid dims, the location
// (relative, no "..", no empty component, no link on the way, a regular file with one name),
// offset/length within the file, and the byte count equal to the declared size. Errors name the
// tensor, the location and the folder: InvalidArgument for a rule broken or a size that disagrees
// with the dims (both numbers given), NotFound for a missing file, DataLoss for offset/length past
// the end of the file, Unimplemented for a data type onnxgate does not support.
Status CheckExternalData(const onnx::TensorProto& proto, const std::string& base_dir);
Status CheckExternalData(const onnx::TensorProto& proto, const ContainedDir& base_dir);

// Where the bytes of an external tensor lie in its file, as CheckExternalData found them.
struct ExternalDataRange {
  std::string location;  // as the tensor gives it
  uint64_t offset = 0;
  uint64_t length = 0;      // the declared size, which the range matches
  uint64_t file_bytes = 0;  // the whole file's size
};

// CheckExternalData, returning the range it checked (without reading a byte).
StatusOr<ExternalDataRange> CheckExternalDataRange(const onnx::TensorProto& proto,
                                                   const ContainedDir& base_dir);

// Checks as CheckExternalData does, on the same open file, then reads the bytes of `proto`
// (data_location == EXTERNAL): exactly the declared size. DataLoss when the file shrank since it
// was opened.
StatusOr<std::string> ReadExternalData(const onnx::TensorProto& proto, const std::string& base_dir);
StatusOr<std::string> ReadExternalData(const onnx::TensorProto& proto,
                                       const ContainedDir& base_dir);

}  // namespace onnxgate
