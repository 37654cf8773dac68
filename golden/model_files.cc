// Listing a model's external data files and hashing them with the model.
#include "golden/model_files.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <set>

#include "golden/sha256.h"
#include "runtime/base/contained_file.h"
#include "runtime/onnx/text_format.h"
#include "runtime/proto/external_data.h"

namespace onnxgate {

namespace {

using Tensors = std::vector<const onnx::TensorProto*>;

void Collect(const onnx::TensorProto& t, Tensors* out) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL) out->push_back(&t);
}

void CollectSparse(const onnx::SparseTensorProto& s, Tensors* out) {
  Collect(s.values(), out);
  Collect(s.indices(), out);
}

void CollectGraph(const onnx::GraphProto& g, Tensors* out);

void CollectNode(const onnx::NodeProto& node, Tensors* out) {
  for (const onnx::AttributeProto& attr : node.attribute()) {
    if (attr.has_t()) Collect(attr.t(), out);
    for (const onnx::TensorProto& t : attr.tensors()) Collect(t, out);
    if (attr.has_sparse_tensor()) CollectSparse(attr.sparse_tensor(), out);
    for (const onnx::SparseTensorProto& s : attr.sparse_tensors()) CollectSparse(s, out);
    if (attr.has_g()) CollectGraph(attr.g(), out);
    for (const onnx::GraphProto& sub : attr.graphs()) CollectGraph(sub, out);
  }
}

void CollectGraph(const onnx::GraphProto& g, Tensors* out) {
  for (const onnx::TensorProto& t : g.initializer()) Collect(t, out);
  for (const onnx::SparseTensorProto& s : g.sparse_initializer()) CollectSparse(s, out);
  for (const onnx::NodeProto& node : g.node()) CollectNode(node, out);
}

}  // namespace

bool IsTextModel(const std::string& path) {
  const std::string suffix = ".onnxtxt";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

namespace {

std::string FolderOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A location as one spelling ("./w/a.bin" and "w/a.bin" are one file), or as given when it
// cannot be split (ExternalDataLocations refuses those before this is reached).
std::string NormalLocation(const std::string& location) {
  StatusOr<std::vector<std::string>> parts = SplitContainedPath(location);
  if (!parts.ok()) return location;
  std::string out;
  for (const std::string& part : *parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

// Every external tensor's range checked against its dims and its file, and every file against
// the ranges in it, without reading a byte: a file that is larger than its tensors need (a
// 2 GiB file, a sparse 1 TiB one) is refused before it is hashed or read.
Status CheckExternalDataSizes(const onnx::ModelProto& model, const std::string& model_path) {
  const Tensors tensors = ExternalDataTensors(model);
  if (tensors.empty()) return OkStatus();
  StatusOr<ContainedDir> dir = ContainedDir::Open(FolderOf(model_path));
  if (!dir.ok()) return dir.status().WithContext(model_path + ": external data");
  struct Use {
    std::string location;  // as the first tensor gives it
    uint64_t file_bytes = 0;
    uint64_t used_to = 0;  // the end of the last range any tensor uses
    std::string last_tensor;
  };
  std::map<std::string, Use> files;  // by NormalLocation
  for (const onnx::TensorProto* t : tensors) {
    StatusOr<ExternalDataRange> range = CheckExternalDataRange(*t, *dir);
    if (!range.ok()) return range.status().WithContext(model_path);
    Use& use = files[NormalLocation(range->location)];
    if (use.location.empty()) use.location = range->location;
    use.file_bytes = range->file_bytes;
    if (range->offset + range->length >= use.used_to) {
      use.used_to = range->offset + range->length;
      use.last_tensor = t->name();
    }
  }
  for (const auto& [normal, use] : files) {
    if (use.file_bytes > use.used_to) {
      return InvalidArgument(model_path + ": external data file '" + use.location + "' has " +
                             std::to_string(use.file_bytes) + " bytes, but its tensors use only " +
                             std::to_string(use.used_to) + " (up to the end of tensor '" +
                             use.last_tensor + "'); bytes no tensor uses are refused unhashed");
    }
  }
  return OkStatus();
}

}  // namespace

std::vector<const onnx::TensorProto*> ExternalDataTensors(const onnx::ModelProto& model) {
  Tensors out;
  CollectGraph(model.graph(), &out);
  for (const onnx::FunctionProto& f : model.functions()) {
    for (const onnx::NodeProto& node : f.node()) CollectNode(node, &out);
  }
  return out;
}

StatusOr<std::vector<std::string>> ExternalDataLocations(const onnx::ModelProto& model,
                                                         const std::string& model_path) {
  std::vector<std::string> locations;
  std::set<std::string> seen;
  for (const onnx::TensorProto* t : ExternalDataTensors(model)) {
    const std::string subject = model_path + ": tensor '" + t->name() + "'";
    const std::string* location = nullptr;
    for (const auto& entry : t->external_data()) {
      if (entry.key() == "location") location = &entry.value();
    }
    if (location == nullptr)
      return InvalidArgument(subject + " has external data without a location");
    Status valid = SplitContainedPath(*location).status();
    if (!valid.ok()) return valid.WithContext(subject + ": external data");
    if (seen.insert(*location).second) locations.push_back(*location);
  }
  return locations;
}

Status ParseModelFile(const std::string& bytes, const std::string& model_path,
                      onnx::ModelProto* model) {
  if (IsTextModel(model_path)) return ParseModelText(bytes, model_path, model);
  if (!model->ParseFromString(bytes)) {
    return DataLoss(model_path + ": not a valid ONNX model (protobuf parse failed)");
  }
  return OkStatus();
}

StatusOr<ModelFileHashes> HashModelFiles(const std::string& model_path) {
  ModelFileHashes hashes;
  onnx::ModelProto model;
  {
    ONNXGATE_ASSIGN_OR_RETURN(std::string bytes,
                              ReadRegularFile(model_path, kMaxProtobufFileBytes, "model file"));
    hashes.model_sha256 = Sha256Hex(bytes);
    ONNXGATE_RETURN_IF_ERROR(ParseModelFile(bytes, model_path, &model));
  }
  ONNXGATE_ASSIGN_OR_RETURN(hashes.external_locations, ExternalDataLocations(model, model_path));
  ONNXGATE_RETURN_IF_ERROR(CheckExternalDataSizes(model, model_path));
  model.Clear();
  StatusOr<std::string> combined =
      Sha256ModelFiles(hashes.model_sha256, FolderOf(model_path), hashes.external_locations);
  if (!combined.ok()) return combined.status().WithContext(model_path);
  hashes.model_files_sha256 = std::move(combined).value();
  return hashes;
}

StatusOr<ModelFileContents> ReadModelFiles(const std::string& model_path,
                                           onnx::ModelProto* parsed) {
  ModelFileContents contents;
  ONNXGATE_ASSIGN_OR_RETURN(contents.model_bytes,
                            ReadRegularFile(model_path, kMaxProtobufFileBytes, "model file"));
  onnx::ModelProto model;
  ONNXGATE_RETURN_IF_ERROR(ParseModelFile(contents.model_bytes, model_path, &model));
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    contents.opset_imports.emplace_back(opset.domain() == "ai.onnx" ? "" : opset.domain(),
                                        opset.version());
  }
  contents.ir_version = model.ir_version();
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const onnx::NodeProto& node = model.graph().node(i);
    contents.nodes.push_back(
        {node.name().empty() ? node.op_type() + "#" + std::to_string(i) : node.name(),
         node.op_type(), node.domain() == "ai.onnx" ? "" : node.domain()});
  }
  ModelFileHashes& hashes = contents.hashes;
  hashes.model_sha256 = Sha256Hex(contents.model_bytes);
  ONNXGATE_ASSIGN_OR_RETURN(hashes.external_locations, ExternalDataLocations(model, model_path));
  ONNXGATE_RETURN_IF_ERROR(CheckExternalDataSizes(model, model_path));
  if (parsed != nullptr) {
    *parsed = std::move(model);
  } else {
    model.Clear();
  }
  std::vector<ExternalFileSha256> file_hashes;
  for (const std::string& location : hashes.external_locations) {
    StatusOr<ContainedFile> file =
        OpenContained(FolderOf(model_path), location, kMaxProtobufFileBytes, "external data file");
    if (!file.ok()) return file.status().WithContext(model_path);
    StatusOr<std::string> bytes = file->ReadAll(kMaxProtobufFileBytes);
    if (!bytes.ok()) return bytes.status().WithContext(model_path);
    file_hashes.push_back({location, Sha256Hex(*bytes)});
    contents.external_files.push_back({location, std::move(bytes).value()});
  }
  StatusOr<std::string> combined =
      CombineModelFilesSha256(hashes.model_sha256, std::move(file_hashes));
  if (!combined.ok()) return combined.status().WithContext(model_path);
  hashes.model_files_sha256 = std::move(combined).value();
  return contents;
}

}  // namespace onnxgate
