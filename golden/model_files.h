// The files a model is made of, hashed for a golden: the model file itself (model_sha256) and,
// with it, every external data file it names (model_files_sha256, golden/sha256.h). The importer
// records both; the case runner recomputes both before it runs a case, so a replaced weights file
// makes the golden stale ("model changed") instead of making the runtime FAIL.
//
// The model is untrusted input: it is read as a regular file of at most kMaxProtobufFileBytes (a
// FIFO or device is refused without blocking), and the external data files are opened beneath its
// folder through runtime/base/contained_file.h, as the runtime opens them: a location that is
// absolute or climbs out with "..", a symbolic link on the way, a hard link, a FIFO or device is
// refused, never followed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
class TensorProto;
}  // namespace onnx

namespace onnxgate {

// Every tensor of `model` whose data_location is EXTERNAL: graph initializers and sparse
// initializers, tensors in node attributes, in subgraphs at any depth and in model-local
// functions. The importer and HashModelFiles both list a model's external data through this.
std::vector<const onnx::TensorProto*> ExternalDataTensors(const onnx::ModelProto& model);

// The `location` of every tensor of ExternalDataTensors, as the model writes it, each once, in
// model order. InvalidArgument naming `model_path` and the tensor for a tensor without a location
// or with one that is absolute, climbs out with "..", or is empty.
StatusOr<std::vector<std::string>> ExternalDataLocations(const onnx::ModelProto& model,
                                                         const std::string& model_path);

// Whether `path` names a model in ONNX's text syntax (it ends in .onnxtxt); anything else is
// binary protobuf, as the runtime reads it.
bool IsTextModel(const std::string& path);

// `bytes` read from `model_path` parsed as the model it is: text syntax or binary protobuf, as
// IsTextModel says. DataLoss (binary) or InvalidArgument (text) naming `model_path`.
Status ParseModelFile(const std::string& bytes, const std::string& model_path,
                      onnx::ModelProto* model);

struct ModelFileHashes {
  std::string model_sha256;        // SHA-256 of the model file's bytes
  std::string model_files_sha256;  // CombineModelFilesSha256 of the model and its external files
  std::vector<std::string> external_locations;  // as ExternalDataLocations gives them
};

// Reads the model at `model_path`, parses it (a name ending in .onnxtxt as ONNX's text syntax,
// anything else as protobuf, as the runtime does), and hashes it and every external data file it
// names. Errors name the model and, for an external data file, its location and folder:
// NotFound / InvalidArgument for a model or data file that is missing or not a regular file,
// DataLoss for a model that does not parse.
StatusOr<ModelFileHashes> HashModelFiles(const std::string& model_path);

// A model and every external data file it names, read into memory (`onnxgate record` copies
// them into a suite), with the hashes HashModelFiles gives for the same files and the model's
// opset imports, IR version and nodes; with `parsed`, the model as parsed too, so no caller parses
// it again. The files are read as HashModelFiles reads them, with the same errors.
struct ModelFileContents {
  std::string model_bytes;
  struct ExternalFile {
    std::string location;  // as ExternalDataLocations gives it
    std::string bytes;
  };
  std::vector<ExternalFile> external_files;                    // in model order
  std::vector<std::pair<std::string, int64_t>> opset_imports;  // model order; "" = ai.onnx
  int64_t ir_version = 0;
  // The main graph's nodes in graph order, unnamed ones named "<op_type>#<index>" as the
  // built-in runtime's session names them.
  struct Node {
    std::string name;
    std::string op_type;
    std::string domain;  // "" = ai.onnx
  };
  std::vector<Node> nodes;
  ModelFileHashes hashes;
};
StatusOr<ModelFileContents> ReadModelFiles(const std::string& model_path,
                                           onnx::ModelProto* parsed = nullptr);

}  // namespace onnxgate
