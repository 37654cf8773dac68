// LoadOnRuntime: a binary scratch copy of a text model for a runtime that reads binary only.
#include "harness/models/load_on_runtime.h"

#include <optional>

#include "harness/models/scratch_model.h"

namespace onnxgate {

namespace {

// `text` with every occurrence of `from` replaced by `to`.
std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

StatusOr<std::unique_ptr<LoadedModel>> LoadOnRuntime(const RuntimeUnderTest& runtime,
                                                     const std::string& model_path,
                                                     const LoadOptions& load,
                                                     const ModelFile* file) {
  if (runtime.ReadsOnnxText() || !IsTextModel(model_path)) {
    return runtime.Load(model_path, load);
  }
  std::optional<StatusOr<ModelFile>> read;
  if (file == nullptr) {
    read.emplace(ModelFile::Read(model_path));
    if (!read->ok()) return read->status();
    file = &read->value();
  }
  StatusOr<ScratchModel> copy = ScratchModel::Write(file->proto(), *file);
  if (!copy.ok()) {
    return copy.status().WithContext(model_path + ": cannot hand a binary copy to " +
                                     runtime.name());
  }
  LoadOptions binary = load;
  binary.model_bytes = nullptr;  // the runtime reads the copy's bytes itself
  StatusOr<std::unique_ptr<LoadedModel>> loaded = runtime.Load(copy->path(), binary);
  if (loaded.ok()) return loaded;
  const Status& st = loaded.status();
  return Status(st.code(),
                ReplaceAll(st.message(), copy->path(), model_path + " (as binary ONNX)"));
}

}  // namespace onnxgate
