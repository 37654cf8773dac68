// Model: an ONNX ModelProto loaded from a binary `.onnx` or ONNX text `.onnxtxt` file, checked by
// libonnx's checker, with libonnx shape/type inference applied. Loading is the one place where
// protobuf parse failures and libonnx exceptions are turned into Status values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "runtime/base/status.h"

namespace onnx {
class ModelProto;
class GraphProto;
}  // namespace onnx

namespace onnxgate {

// How models are loaded: limits that keep a hostile or broken model from exhausting the stack
// or the memory, and where libonnx's shape inference runs.
struct ModelOptions {
  int max_subgraph_depth = 16;  // graphs nested in graph attributes (If in Loop in ...)
  int64_t max_nodes = 200000;   // nodes of all graphs together
  // Shape inference in a child process (about a millisecond per load), so that a libonnx crash
  // on a malformed model costs only the inferred types (see type_inference.h).
  bool isolate_shape_inference = true;
  int shape_inference_timeout_seconds = 60;
};

class Model {
 public:
  // Reads `path`: ONNX text format when it ends in ".onnxtxt", binary protobuf otherwise. The
  // path may be a symbolic link but must name a regular file of at most kMaxProtobufFileBytes
  // (runtime/base/contained_file.h). Errors name the file: NotFound (no such file), DataLoss
  // (empty or not parseable as protobuf), InvalidArgument (not a regular file, too large, parse
  // errors of the text format, checker failures, limits, external data leaving the model's
  // folder or disagreeing with its tensor's size), Unimplemented (an op without ONNX schema, an
  // IR version newer than this runtime's ONNX).
  static StatusOr<std::shared_ptr<const Model>> Load(const std::string& path,
                                                     const ModelOptions& options = {});

  // Load for the file at `path` whose `bytes` the caller has read already (model_file.h): the
  // same checks and errors, without reading the file again.
  static StatusOr<std::shared_ptr<const Model>> FromFileBytes(const std::string& path,
                                                              const std::string& bytes,
                                                              const ModelOptions& options = {});

  // The same checks for a model already in memory. `dir` is the folder external data resolves
  // against; `display_name` names the model in messages.
  static StatusOr<std::shared_ptr<const Model>> FromProto(onnx::ModelProto proto,
                                                          const std::string& dir,
                                                          const std::string& display_name,
                                                          const ModelOptions& options = {});

  // Parses ONNX text format into a ModelProto without checking it.
  static StatusOr<onnx::ModelProto> ParseText(const std::string& text,
                                              const std::string& display_name);

  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const onnx::ModelProto& proto() const { return *proto_; }
  const onnx::GraphProto& graph() const;
  const std::string& display_name() const { return display_name_; }
  const std::string& dir() const { return dir_; }
  // The opset the model imports for `domain` ("" and "ai.onnx" are the same), -1 when none.
  int OpsetFor(const std::string& domain) const;
  const std::map<std::string, int>& opset_imports() const { return opset_imports_; }

 private:
  Model() = default;

  std::unique_ptr<onnx::ModelProto> proto_;
  std::string dir_;
  std::string display_name_;
  std::map<std::string, int> opset_imports_;  // "" for ai.onnx
};

// The folder of a file path: "a/b/model.onnx" -> "a/b", "model.onnx" -> ".".
std::string DirectoryOf(const std::string& path);

}  // namespace onnxgate
