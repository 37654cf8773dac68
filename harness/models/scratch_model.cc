// Rewritten copies of users' models (see scratch_model.h).
#include "harness/models/scratch_model.h"

#include <stdlib.h>

#include <filesystem>

#include "runtime/base/atomic_file.h"
#include "runtime/onnx/version_converter.h"

namespace onnxgate {

StatusOr<ScratchModel> ScratchModel::Write(const onnx::ModelProto& model,
                                           const ModelFileContents& files) {
  std::string pattern = (std::filesystem::temp_directory_path() / "onnxgate-model-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return Internal("cannot create a temporary folder for a rewritten model in " +
                    std::filesystem::temp_directory_path().string());
  }
  ScratchModel scratch(pattern);
  std::string bytes;
  if (!model.SerializeToString(&bytes)) {
    return Internal("the rewritten model cannot be serialized (over 2 GiB?)");
  }
  ONNXGATE_RETURN_IF_ERROR(WriteFileAtomically(scratch.path_, bytes));
  for (const ModelFileContents::ExternalFile& file : files.external_files) {
    ONNXGATE_RETURN_IF_ERROR(
        WriteFileAtomically(scratch.folder_ + "/" + file.location, file.bytes));
  }
  return scratch;
}

ScratchModel::ScratchModel(ScratchModel&& other) noexcept
    : folder_(std::move(other.folder_)), path_(std::move(other.path_)) {
  other.folder_.clear();
}

ScratchModel::~ScratchModel() {
  std::error_code ec;
  if (!folder_.empty()) std::filesystem::remove_all(folder_, ec);
}

StatusOr<ScratchModel> ConvertModelFile(const std::string& model_path, int target_opset) {
  onnx::ModelProto model;
  ONNXGATE_ASSIGN_OR_RETURN(ModelFileContents files, ReadModelFiles(model_path, &model));
  int64_t opset = 0;
  for (const auto& [domain, version] : files.opset_imports) {
    if (domain.empty()) opset = version;
  }
  if (opset > target_opset) {
    return Unimplemented(model_path + " imports opset " + std::to_string(opset) +
                         ", later than the target " + std::to_string(target_opset));
  }
  if (opset == target_opset) return ScratchModel::Write(model, files);
  ONNXGATE_ASSIGN_OR_RETURN(onnx::ModelProto converted, ConvertOpset(model, target_opset));
  return ScratchModel::Write(converted, files);
}

StatusOr<ExposedModel> ExposeIntermediatesOfModelFile(const std::string& model_path) {
  onnx::ModelProto model;
  ONNXGATE_ASSIGN_OR_RETURN(ModelFileContents files, ReadModelFiles(model_path, &model));
  std::vector<ExposedValue> graph_outputs = GraphOutputProducers(model);
  StatusOr<std::vector<ExposedValue>> intermediates = ExposeIntermediateOutputs(model);
  if (!intermediates.ok()) return intermediates.status().WithContext(model_path);
  ONNXGATE_ASSIGN_OR_RETURN(ScratchModel copy, ScratchModel::Write(model, files));
  return ExposedModel{std::move(copy), std::move(intermediates).value(), std::move(graph_outputs)};
}

}  // namespace onnxgate
