// A model file read once: its bytes, the ModelProto parsed from them, their SHA-256, the external
// data files the model names and one hash over the model and all of them. The case runner,
// check-model, diff, record, bench and the op-version lookup all start from it, so each reads a
// model file once; Model::Load (model.h) parses with the same rules.
//
// The model is untrusted input: it is read as a regular file of at most kMaxProtobufFileBytes (a
// FIFO or device is refused without blocking), and its external data files are opened beneath its
// folder through runtime/base/contained_file.h, as the runtime opens them: a location that is
// absolute or climbs out with "..", a symbolic link on the way, a hard link, a FIFO or device is
// refused, never followed. External data is never held whole: each file is checked against the
// ranges its tensors use from its size alone, then hashed (and, when asked, copied) in pieces of
// kSha256ChunkBytes.
#pragma once

#include <cstdint>
#include <memory>
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
// functions.
std::vector<const onnx::TensorProto*> ExternalDataTensors(const onnx::ModelProto& model);

// The `location` of every tensor of ExternalDataTensors, as the model writes it, each once, in
// model order. InvalidArgument naming `model_path` and the tensor for a tensor without a location
// or with one that is absolute, climbs out with "..", or is empty.
StatusOr<std::vector<std::string>> ExternalDataLocations(const onnx::ModelProto& model,
                                                         const std::string& model_path);

// Whether `path` names a model in ONNX's text syntax (it ends in .onnxtxt); anything else is
// binary protobuf.
bool IsTextModel(const std::string& path);

// `bytes` read from `model_path` parsed as the model it is: text syntax or binary protobuf, as
// IsTextModel says. DataLoss (binary) or InvalidArgument (text) naming `model_path`.
Status ParseModelFile(const std::string& bytes, const std::string& model_path,
                      onnx::ModelProto* model);

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
// ModelFile::Read and the importer both compute it through this function. InvalidArgument for a
// location that is absolute, climbs out with "..", or is empty (SplitContainedPath), or a digest
// that is not 64 lowercase hex digits.
StatusOr<std::string> CombineModelFilesSha256(const std::string& model_sha256,
                                              std::vector<ExternalFileSha256> files);

class ModelFile {
 public:
  // Reads the model at `path` once, parses it (a name ending in .onnxtxt as ONNX's text syntax,
  // anything else as protobuf), lists its external data files, checks each against the ranges its
  // tensors use (a file with bytes no tensor uses is refused unread) and hashes each in pieces.
  // Errors name the model and, for an external data file, its location and folder: NotFound /
  // InvalidArgument for a model or data file that is missing or not a regular file, DataLoss for a
  // model that does not parse.
  static StatusOr<ModelFile> Read(const std::string& path);

  ModelFile(ModelFile&& other) noexcept;
  ModelFile& operator=(ModelFile&& other) noexcept;
  ModelFile(const ModelFile&) = delete;
  ModelFile& operator=(const ModelFile&) = delete;
  ~ModelFile();

  const std::string& path() const { return path_; }
  // The file's bytes as read.
  const std::string& bytes() const { return bytes_; }
  const onnx::ModelProto& proto() const { return *proto_; }
  // SHA-256 of bytes().
  const std::string& sha256() const { return sha256_; }
  // As ExternalDataLocations gives them.
  const std::vector<std::string>& external_locations() const { return external_locations_; }
  // CombineModelFilesSha256 of the model and every external data file (a golden's
  // model_files_sha256).
  const std::string& files_sha256() const { return files_sha256_; }

  int64_t ir_version() const;
  // The opset imports in model order, the default domain as "".
  std::vector<std::pair<std::string, int64_t>> opset_imports() const;
  // The main graph's nodes in graph order, unnamed ones named "<op_type>#<index>" as the built-in
  // runtime's session names them.
  struct Node {
    std::string name;
    std::string op_type;
    std::string domain;  // "" = ai.onnx
  };
  std::vector<Node> nodes() const;

  // Copies every external data file beneath the folder `to_dir` under its location, in pieces,
  // opened again as Read opened it. DataLoss naming the file when its bytes no longer hash as
  // they did when read (it changed since): the copy then is not left behind.
  Status CopyExternalData(const std::string& to_dir) const;

 private:
  ModelFile();

  std::string path_;
  std::string bytes_;
  std::unique_ptr<onnx::ModelProto> proto_;
  std::string sha256_;
  std::vector<std::string> external_locations_;
  std::vector<ExternalFileSha256> external_files_;  // normalized locations, each once, sorted
  std::string files_sha256_;
};

}  // namespace onnxgate
