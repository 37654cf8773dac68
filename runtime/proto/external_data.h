// External data of initializers: resolves a TensorProto's `location` against the model's folder,
// refusing locations that leave it (absolute paths, "..", symbolic links) and offset/length that
// exceed the file, and reads the bytes.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/status.h"

namespace onnx {
class TensorProto;
}

namespace onnxgate {

// Checks every rule without reading the bytes: keys, location inside `base_dir` (relative, no
// "..", no symbolic link on the way), the file exists, offset/length within it.
Status CheckExternalData(const onnx::TensorProto& proto, const std::string& base_dir);

// Reads the external bytes of `proto` (data_location == EXTERNAL) from below `base_dir`.
StatusOr<std::string> ReadExternalData(const onnx::TensorProto& proto, const std::string& base_dir);

}  // namespace onnxgate
