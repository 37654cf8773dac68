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

// `st` with the scratch copy's path replaced by the user's file.
Status NamingTheUsersFile(const Status& st, const std::string& copy, const std::string& shown) {
  return Status(st.code(), ReplaceAll(st.message(), copy, shown + " (as binary ONNX)"));
}

// A model loaded from a scratch copy, which lives as long as the model (a runtime may read its
// file again while running) and whose path its errors never show.
class ScratchLoadedModel : public LoadedModel {
 public:
  ScratchLoadedModel(ScratchModel copy, std::unique_ptr<LoadedModel> model, std::string shown)
      : copy_(std::move(copy)), model_(std::move(model)), shown_(std::move(shown)) {}
  std::vector<ValueInfo> inputs() const override { return model_->inputs(); }
  std::vector<ValueInfo> outputs() const override { return model_->outputs(); }
  std::map<std::string, std::string> metadata() const override { return model_->metadata(); }
  std::vector<NodePlacement> placements() const override { return model_->placements(); }
  StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds) const override {
    StatusOr<std::vector<Value>> out = model_->Run(feeds);
    if (out.ok()) return out;
    return NamingTheUsersFile(out.status(), copy_.path(), shown_);
  }

 private:
  ScratchModel copy_;                   // removed after the model below is gone
  std::unique_ptr<LoadedModel> model_;  // destroyed first
  std::string shown_;
};

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
  if (!loaded.ok()) return NamingTheUsersFile(loaded.status(), copy->path(), model_path);
  return std::unique_ptr<LoadedModel>(
      new ScratchLoadedModel(std::move(copy).value(), std::move(loaded).value(), model_path));
}

}  // namespace onnxgate
