// Rewritten copies of users' models (see scratch_model.h).
#include "harness/models/scratch_model.h"

#include <stdlib.h>

#include <filesystem>

#include "runtime/base/atomic_file.h"
#include "runtime/onnx/domain.h"
#include "runtime/onnx/version_converter.h"

namespace onnxgate {

StatusOr<ScratchModel> ScratchModel::Write(const onnx::ModelProto& model, const ModelFile& file) {
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
  ONNXGATE_RETURN_IF_ERROR(file.CopyExternalData(scratch.folder_));
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

StatusOr<ScratchModel> ConvertModelFile(const ModelFile& file, int target_opset,
                                        ConversionWays ways) {
  int64_t opset = 0;
  for (const auto& [domain, version] : file.opset_imports()) {
    if (IsDefaultDomain(domain)) opset = version;
  }
  if (opset > target_opset && ways == ConversionWays::kForwardOnly) {
    return Unimplemented(file.path() + " imports opset " + std::to_string(opset) +
                         ", later than the target " + std::to_string(target_opset));
  }
  if (opset == target_opset) return ScratchModel::Write(file.proto(), file);
  StatusOr<onnx::ModelProto> converted = ConvertOpset(file.proto(), target_opset);
  if (!converted.ok()) return converted.status().WithContext(file.path());
  return ScratchModel::Write(*converted, file);
}

StatusOr<ExposedModel> ExposeIntermediatesOfModelFile(const ModelFile& file) {
  onnx::ModelProto model = file.proto();  // the copy that is rewritten
  std::vector<ExposedValue> graph_outputs = GraphOutputProducers(model);
  StatusOr<std::vector<ExposedValue>> intermediates = ExposeIntermediateOutputs(model);
  if (!intermediates.ok()) return intermediates.status().WithContext(file.path());
  ONNXGATE_ASSIGN_OR_RETURN(ScratchModel copy, ScratchModel::Write(model, file));
  return ExposedModel{std::move(copy), std::move(intermediates).value(), std::move(graph_outputs)};
}

}  // namespace onnxgate
