// External data: keys parsed, the declared size computed, the file opened beneath the model's
// folder (runtime/base/contained_file.h), offset/length and the declared size checked on that open
// file, and only then the bytes read.
#include "runtime/proto/external_data.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>

#include "runtime/base/contained_file.h"
#include "runtime/proto/declared_tensor.h"

namespace onnxgate {

namespace {

// Parses a non-negative decimal integer; nullopt for anything else (signs, spaces, overflow).
std::optional<uint64_t> ParseSize(const std::string& s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

// What the keys and the declaration say, before any file is touched.
struct Request {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  DeclaredTensor declared;
};

StatusOr<Request> ParseRequest(const onnx::TensorProto& proto, const std::string& label) {
  std::map<std::string, std::string> keys;
  for (const auto& entry : proto.external_data()) {
    if (!keys.emplace(entry.key(), entry.value()).second) {
      return InvalidArgument(label + ": external_data key '" + entry.key() + "' appears twice");
    }
  }
  auto loc_it = keys.find("location");
  if (loc_it == keys.end()) return InvalidArgument(label + ": external_data has no 'location' key");
  Request r;
  r.location = loc_it->second;
  for (const char* key : {"offset", "length"}) {
    auto it = keys.find(key);
    if (it == keys.end()) continue;
    std::optional<uint64_t> v = ParseSize(it->second);
    if (!v) {
      return InvalidArgument(label + ": external_data " + key + " '" + it->second +
                             "' is not a non-negative integer");
    }
    if (std::string(key) == "offset") {
      r.offset = *v;
    } else {
      r.length = *v;
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(r.declared, DeclaredTensorOf(proto));
  if (r.declared.type == DataType::kString) {
    return InvalidArgument(label +
                           ": STRING tensors keep their data in string_data, not external data");
  }
  return r;
}

// The open file and the range of it that holds the tensor, every rule checked.
struct Opened {
  ContainedFile file;
  std::string location;
  uint64_t offset = 0;
  uint64_t count = 0;
  uint64_t declared_bytes = 0;
};

StatusOr<Opened> OpenChecked(const onnx::TensorProto& proto, const ContainedDir& dir) {
  const std::string label = TensorLabel(proto);
  ONNXGATE_ASSIGN_OR_RETURN(Request r, ParseRequest(proto, label));
  // No size limit on the file: one file may hold many tensors. The range read is what is bounded.
  ONNXGATE_ASSIGN_OR_RETURN(
      ContainedFile file,
      dir.OpenFile(r.location, kNoFileSizeLimit, "external data '" + r.location + "' of " + label));
  const uint64_t size = file.size();
  if (r.offset > size) {
    return DataLoss(label + ": external data offset " + std::to_string(r.offset) +
                    " is past the end of '" + r.location + "' (" + std::to_string(size) +
                    " bytes)");
  }
  const uint64_t count = r.length ? *r.length : size - r.offset;
  if (count > size - r.offset) {
    return DataLoss(label + ": external data offset " + std::to_string(r.offset) + " + length " +
                    std::to_string(count) + " exceeds the size of '" + r.location + "' (" +
                    std::to_string(size) + " bytes)");
  }
  if (count != r.declared.storage_bytes) {
    return InvalidArgument(label + ": external data '" + r.location + "' has " +
                           std::to_string(count) + " bytes but " + StorageNeeds(r.declared));
  }
  return Opened{std::move(file), r.location, r.offset, count, r.declared.storage_bytes};
}

StatusOr<ContainedDir> OpenBase(const onnx::TensorProto& proto, const std::string& base_dir) {
  const std::string label = TensorLabel(proto);
  if (base_dir.empty()) {
    return InvalidArgument(label + ": external data needs the model's folder to resolve against");
  }
  StatusOr<ContainedDir> dir = ContainedDir::Open(base_dir);
  if (!dir.ok()) return dir.status().WithContext(label + ": external data");
  return dir;
}

}  // namespace

Status CheckExternalData(const onnx::TensorProto& proto, const ContainedDir& base_dir) {
  return OpenChecked(proto, base_dir).status();
}

StatusOr<ExternalDataRange> CheckExternalDataRange(const onnx::TensorProto& proto,
                                                   const ContainedDir& base_dir) {
  ONNXGATE_ASSIGN_OR_RETURN(Opened o, OpenChecked(proto, base_dir));
  return ExternalDataRange{o.location, o.offset, o.count, o.file.size()};
}

Status CheckExternalData(const onnx::TensorProto& proto, const std::string& base_dir) {
  ONNXGATE_ASSIGN_OR_RETURN(ContainedDir dir, OpenBase(proto, base_dir));
  return CheckExternalData(proto, dir);
}

StatusOr<std::string> ReadExternalData(const onnx::TensorProto& proto,
                                       const ContainedDir& base_dir) {
  ONNXGATE_ASSIGN_OR_RETURN(Opened o, OpenChecked(proto, base_dir));
  return o.file.ReadRange(o.offset, o.count, o.declared_bytes);
}

StatusOr<std::string> ReadExternalData(const onnx::TensorProto& proto,
                                       const std::string& base_dir) {
  ONNXGATE_ASSIGN_OR_RETURN(ContainedDir dir, OpenBase(proto, base_dir));
  return ReadExternalData(proto, dir);
}

}  // namespace onnxgate
