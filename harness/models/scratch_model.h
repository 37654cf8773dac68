// A rewritten copy of a user's model in a temporary folder of its own, beside copies of the
// original's external data files, for commands that run a model ONNX's tools changed: a version
// conversion (check-model --target-opset) or every intermediate value exposed as an output
// (diff --layerwise, record --layerwise, a failing case's attribution). The folder is removed with
// the object; the user's folder is never written.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/model/intermediate_outputs.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

class ScratchModel;

// Which ways ConvertModelFile moves a model: run/gate --convert-to-opset only forward (a case
// at a later opset says nothing about the runtime at the target), check-model --target-opset
// both ways.
enum class ConversionWays { kForwardOnly, kBothWays };

// The model of `file` converted by ONNX's version converter to default-domain opset
// `target_opset`, as a scratch copy. With kForwardOnly, Unimplemented when the model imports a
// later opset than the target; InvalidArgument naming both opsets and each node that blocks the
// conversion (its op version and the opset where its op first exists), or the converter's
// reason; a model already at the target is copied as it is.
StatusOr<ScratchModel> ConvertModelFile(const ModelFile& file, int target_opset,
                                        ConversionWays ways = ConversionWays::kForwardOnly);

class ScratchModel {
 public:
  // Writes `model` as <temporary folder>/model.onnx and copies each of `file`'s external data
  // files beside it under its location, in pieces (ModelFile::CopyExternalData). Errors say what
  // could not be created, read or written.
  static StatusOr<ScratchModel> Write(const onnx::ModelProto& model, const ModelFile& file);
  ScratchModel(ScratchModel&& other) noexcept;
  ScratchModel& operator=(ScratchModel&&) = delete;
  ScratchModel(const ScratchModel&) = delete;
  ~ScratchModel();

  const std::string& path() const { return path_; }

 private:
  explicit ScratchModel(std::string folder)
      : folder_(std::move(folder)), path_(folder_ + "/model.onnx") {}
  std::string folder_;
  std::string path_;
};

// The model of `file` with every intermediate value exposed as an output, as a scratch copy: what
// a layer-by-layer comparison runs.
struct ExposedModel {
  ScratchModel copy;
  std::vector<ExposedValue> intermediates;  // the exposed values, in node order
  std::vector<ExposedValue> graph_outputs;  // the nodes computing the graph outputs, in node order
};
// Errors name the model: one that does not read, or whose types cannot be inferred.
StatusOr<ExposedModel> ExposeIntermediatesOfModelFile(const ModelFile& file);

}  // namespace onnxgate
