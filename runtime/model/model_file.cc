// Reading a model file once: bytes, proto, hashes, external data listed, checked, hashed and
// copied in pieces.
#include "runtime/model/model_file.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>

#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/sha256.h"
#include "runtime/model/model.h"
#include "runtime/onnx/op_spec.h"
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

// A location as one spelling: "./w/a.bin" and "w/a.bin" are one file.
StatusOr<std::string> NormalizedLocation(const std::string& location) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> parts, SplitContainedPath(location));
  std::string normalized;
  for (const std::string& part : parts) normalized += (normalized.empty() ? "" : "/") + part;
  return normalized;
}

// Every external tensor's range checked against its dims and its file, and every file against
// the ranges in it, without reading a byte: a file that is larger than its tensors need (a
// 2 GiB file, a sparse 1 TiB one) is refused before it is hashed or read.
Status CheckExternalDataSizes(const Tensors& tensors, const ContainedDir& dir,
                              const std::string& model_path) {
  struct Use {
    std::string location;  // as the first tensor gives it
    uint64_t file_bytes = 0;
    uint64_t used_to = 0;  // the end of the last range any tensor uses
    std::string last_tensor;
  };
  std::map<std::string, Use> files;  // by normalized location
  for (const onnx::TensorProto* t : tensors) {
    StatusOr<ExternalDataRange> range = CheckExternalDataRange(*t, dir);
    if (!range.ok()) return range.status().WithContext(model_path);
    ONNXGATE_ASSIGN_OR_RETURN(std::string normal, NormalizedLocation(range->location));
    Use& use = files[normal];
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

// Each file of `locations` once (by normalized location, in byte order), hashed in pieces.
StatusOr<std::vector<ExternalFileSha256>> HashExternalFiles(
    const ContainedDir& dir, const std::vector<std::string>& locations) {
  std::map<std::string, std::string> hashed;  // normalized location -> sha256
  for (const std::string& location : locations) {
    ONNXGATE_ASSIGN_OR_RETURN(std::string normalized, NormalizedLocation(location));
    if (hashed.count(normalized) > 0) continue;
    ONNXGATE_ASSIGN_OR_RETURN(ContainedFile file, dir.OpenFile(normalized, kNoFileSizeLimit,
                                                               "external data '" + location + "'"));
    ONNXGATE_ASSIGN_OR_RETURN(hashed[normalized], Sha256OfFile(file));
  }
  std::vector<ExternalFileSha256> files;
  for (auto& [location, sha256] : hashed) files.push_back({location, sha256});
  return files;
}

// Writes `from` to `to_path` in pieces, hashing them on the way; nothing is left at `to_path`
// unless what was written hashes to `sha256`.
Status CopyInPieces(const ContainedFile& from, const std::string& to_path,
                    const std::string& sha256) {
  return WriteThroughTempFile(to_path, [&](const std::string& temp) -> Status {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return NotFound("cannot open " + temp + " for writing: " + std::strerror(errno));
    Sha256Hasher hasher;
    for (uint64_t offset = 0; offset < from.size(); offset += kSha256ChunkBytes) {
      ONNXGATE_ASSIGN_OR_RETURN(
          std::string chunk,
          from.ReadRange(offset, std::min(kSha256ChunkBytes, from.size() - offset),
                         kSha256ChunkBytes));
      hasher.Update(chunk);
      out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    }
    out.close();
    if (!out) return DataLoss("writing " + temp + " failed: " + std::strerror(errno));
    const std::string copied = hasher.HexDigest();
    if (copied != sha256) {
      return DataLoss(from.name() + ": changed since it was read (sha256 " + sha256.substr(0, 12) +
                      "... then, " + copied.substr(0, 12) + "... now)");
    }
    return OkStatus();
  });
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

bool IsTextModel(const std::string& path) {
  const std::string suffix = ".onnxtxt";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status ParseModelFile(const std::string& bytes, const std::string& model_path,
                      onnx::ModelProto* model) {
  if (IsTextModel(model_path)) return ParseModelText(bytes, model_path, model);
  if (!model->ParseFromString(bytes)) {
    return DataLoss(model_path + ": not a valid ONNX model (protobuf parse failed)");
  }
  return OkStatus();
}

StatusOr<std::string> CombineModelFilesSha256(const std::string& model_sha256,
                                              std::vector<ExternalFileSha256> files) {
  if (!IsSha256Hex(model_sha256)) {
    return InvalidArgument("model sha256 '" + model_sha256 + "' is not 64 lowercase hex digits");
  }
  std::map<std::string, std::string> by_location;  // byte order of the normalized location
  for (ExternalFileSha256& f : files) {
    if (!IsSha256Hex(f.sha256)) {
      return InvalidArgument("sha256 '" + f.sha256 + "' of external data file '" + f.location +
                             "' is not 64 lowercase hex digits");
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::string location, NormalizedLocation(f.location));
    auto [it, inserted] = by_location.emplace(location, f.sha256);
    if (!inserted && it->second != f.sha256) {
      return InvalidArgument("external data file '" + location +
                             "' is given twice with different hashes");
    }
  }
  std::string text = "onnxgate-model-files-v1\nmodel " + model_sha256 + "\n";
  for (const auto& [location, sha256] : by_location) {
    text += "file " + sha256 + " " + std::to_string(location.size()) + " " + location + "\n";
  }
  return Sha256Hex(text);
}

ModelFile::ModelFile() : proto_(std::make_unique<onnx::ModelProto>()) {}
ModelFile::ModelFile(ModelFile&& other) noexcept = default;
ModelFile& ModelFile::operator=(ModelFile&& other) noexcept = default;
ModelFile::~ModelFile() = default;

StatusOr<ModelFile> ModelFile::Read(const std::string& path) {
  ModelFile file;
  file.path_ = path;
  ONNXGATE_ASSIGN_OR_RETURN(file.bytes_,
                            ReadRegularFile(path, kMaxProtobufFileBytes, "model file"));
  file.sha256_ = Sha256Hex(file.bytes_);
  ONNXGATE_RETURN_IF_ERROR(ParseModelFile(file.bytes_, path, file.proto_.get()));
  ONNXGATE_ASSIGN_OR_RETURN(file.external_locations_, ExternalDataLocations(*file.proto_, path));
  const Tensors tensors = ExternalDataTensors(*file.proto_);
  if (!tensors.empty()) {
    StatusOr<ContainedDir> dir = ContainedDir::Open(DirectoryOf(path));
    if (!dir.ok()) return dir.status().WithContext(path + ": external data");
    ONNXGATE_RETURN_IF_ERROR(CheckExternalDataSizes(tensors, *dir, path));
    StatusOr<std::vector<ExternalFileSha256>> hashed =
        HashExternalFiles(*dir, file.external_locations_);
    if (!hashed.ok()) return hashed.status().WithContext(path);
    file.external_files_ = std::move(hashed).value();
  }
  StatusOr<std::string> combined = CombineModelFilesSha256(file.sha256_, file.external_files_);
  if (!combined.ok()) return combined.status().WithContext(path);
  file.files_sha256_ = std::move(combined).value();
  return file;
}

int64_t ModelFile::ir_version() const { return proto_->ir_version(); }

std::vector<std::pair<std::string, int64_t>> ModelFile::opset_imports() const {
  std::vector<std::pair<std::string, int64_t>> imports;
  for (const onnx::OperatorSetIdProto& opset : proto_->opset_import()) {
    imports.emplace_back(NormalizeDomain(opset.domain()), opset.version());
  }
  return imports;
}

std::vector<ModelFile::Node> ModelFile::nodes() const {
  std::vector<Node> nodes;
  const onnx::GraphProto& graph = proto_->graph();
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    nodes.push_back({node.name().empty() ? node.op_type() + "#" + std::to_string(i) : node.name(),
                     node.op_type(), NormalizeDomain(node.domain())});
  }
  return nodes;
}

Status ModelFile::CopyExternalData(const std::string& to_dir) const {
  if (external_files_.empty()) return OkStatus();
  StatusOr<ContainedDir> dir = ContainedDir::Open(DirectoryOf(path_));
  if (!dir.ok()) return dir.status().WithContext(path_ + ": external data");
  for (const ExternalFileSha256& f : external_files_) {
    StatusOr<ContainedFile> from =
        dir->OpenFile(f.location, kNoFileSizeLimit, "external data '" + f.location + "'");
    if (!from.ok()) return from.status().WithContext(path_);
    Status copied = CopyInPieces(*from, to_dir + "/" + f.location, f.sha256);
    if (!copied.ok()) return copied.WithContext(path_);
  }
  return OkStatus();
}

}  // namespace onnxgate
