// WriteGolden (the current format, with its checksums) and the small text helpers of the format
// (value names, opset imports, timestamps).
#include <cmath>
#include <ctime>
#include <new>
#include <set>

#include "golden/golden_checksum.h"
#include "golden/golden_file.h"
#include "golden/golden_layerwise.h"
#include "golden/golden_value_io.h"
#include "golden/hdf5_containment.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/sha256.h"
#include "runtime/base/utc_time.h"
#include "runtime/onnx/domain.h"

namespace onnxgate {

namespace {

Status ValidateTolerance(const std::optional<double>& t, const char* which,
                         const std::string& where) {
  if (t && (!std::isfinite(*t) || *t < 0)) {
    return InvalidArgument(where + ": " + which + " must be a finite number >= 0, got " +
                           std::to_string(*t));
  }
  return OkStatus();
}

Status ValidateValues(const std::vector<GoldenValue>& values, bool outputs,
                      const std::string& where) {
  std::set<std::string> names;
  std::set<int64_t> indices;
  for (const GoldenValue& v : values) {
    std::string at = where + "/" + (v.name.empty() ? "<unnamed>" : EncodeGoldenName(v.name));
    if (v.name.empty()) return InvalidArgument(at + ": a value needs a non-empty name");
    if (!names.insert(v.name).second) return InvalidArgument(at + ": the name appears twice");
    if (v.index < 0)
      return InvalidArgument(at + ": index " + std::to_string(v.index) + " is negative");
    if (!indices.insert(v.index).second) {
      return InvalidArgument(at + ": index " + std::to_string(v.index) + " is used twice");
    }
    if (!outputs && (v.rtol || v.atol)) {
      return InvalidArgument(at + ": rtol/atol are for outputs only");
    }
    ONNXGATE_RETURN_IF_ERROR(ValidateTolerance(v.rtol, "rtol", at));
    ONNXGATE_RETURN_IF_ERROR(ValidateTolerance(v.atol, "atol", at));
  }
  return OkStatus();
}

Status Validate(const std::string& path, const GoldenFile& golden) {
  std::string at = path + ": /";
  if (golden.producer.empty()) return InvalidArgument(at + ": producer must not be empty");
  if (!IsSha256Hex(golden.model_sha256)) {
    return InvalidArgument(at + ": model_sha256 must be 64 lowercase hex digits, got '" +
                           golden.model_sha256 + "'");
  }
  if (!golden.model_files_sha256.empty() && !IsSha256Hex(golden.model_files_sha256)) {
    return InvalidArgument(at +
                           ": model_files_sha256 must be empty or 64 lowercase hex digits, got '" +
                           golden.model_files_sha256 + "'");
  }
  for (const auto& [domain, version] : golden.opset_imports) {
    if (domain.find_first_of(",:") != std::string::npos || version < 1) {
      return InvalidArgument(at + ": bad opset import '" + domain + "' version " +
                             std::to_string(version));
    }
  }
  if (!golden.created.empty() && !IsUtcTimestamp(golden.created)) {
    return InvalidArgument(at + ": created must be a UTC time like 2026-11-21T03:00:00Z, got '" +
                           golden.created + "'");
  }
  ONNXGATE_RETURN_IF_ERROR(CheckLayerwiseAttributes(golden, at + ": "));
  for (size_t i = 0; i < golden.sets.size(); ++i) {
    std::string set = path + ": /sets/" + std::to_string(i);
    ONNXGATE_RETURN_IF_ERROR(ValidateValues(golden.sets[i].inputs, false, set + "/inputs"));
    ONNXGATE_RETURN_IF_ERROR(ValidateValues(golden.sets[i].outputs, true, set + "/outputs"));
    ONNXGATE_RETURN_IF_ERROR(
        ValidateValues(golden.sets[i].intermediates, false, set + "/intermediates"));
  }
  return OkStatus();
}

Status WriteValues(hid_t parent, const std::vector<GoldenValue>& values, const H5Where& where) {
  for (const GoldenValue& v : values) {
    std::string link = EncodeGoldenName(v.name);
    H5Where at = where.Child(link);
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle obj, WriteValueObject(parent, link, v.value, at));
    ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(obj.get(), "name", v.name, at));
    ONNXGATE_RETURN_IF_ERROR(WriteInt64Attribute(obj.get(), "index", v.index, at));
    if (v.rtol) ONNXGATE_RETURN_IF_ERROR(WriteDoubleAttribute(obj.get(), "rtol", *v.rtol, at));
    if (v.atol) ONNXGATE_RETURN_IF_ERROR(WriteDoubleAttribute(obj.get(), "atol", *v.atol, at));
    ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(obj.get(), "sha256", GoldenValueSha256(v), at));
  }
  return OkStatus();
}

// Writes the whole file at `temp`; messages name `path`, the file the caller asked for.
// `golden.created` is filled in: the checksum covers it.
Status WriteTo(const std::string& temp, const std::string& path, const GoldenFile& golden) {
  H5Where root{path, "/"};
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle fcpl, UntimedCreationList(H5P_FILE_CREATE, root));
  ONNXGATE_ASSIGN_OR_RETURN(
      H5Handle file,
      H5Take(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), H5Fclose,
             StatusCode::kUnavailable, root, "cannot create the temporary file " + temp));
  hid_t f = file.get();
  ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(f, "format", kGoldenFormat, root));
  ONNXGATE_RETURN_IF_ERROR(WriteInt64Attribute(f, "format_version", golden.format_version, root));
  ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(f, "producer", golden.producer, root));
  ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(f, "model_sha256", golden.model_sha256, root));
  if (!golden.model_files_sha256.empty()) {
    ONNXGATE_RETURN_IF_ERROR(
        WriteStringAttribute(f, "model_files_sha256", golden.model_files_sha256, root));
  }
  ONNXGATE_RETURN_IF_ERROR(
      WriteStringAttribute(f, "opset_imports", FormatOpsetImports(golden.opset_imports), root));
  ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(f, "created", golden.created, root));
  if (!golden.source.empty())
    ONNXGATE_RETURN_IF_ERROR(WriteStringAttribute(f, "source", golden.source, root));
  if (golden.layerwise_every != 1) {
    ONNXGATE_RETURN_IF_ERROR(
        WriteInt64Attribute(f, "layerwise_every", golden.layerwise_every, root));
  }
  if (!golden.layerwise_precision.empty()) {
    ONNXGATE_RETURN_IF_ERROR(
        WriteStringAttribute(f, "layerwise_precision", golden.layerwise_precision, root));
  }
  ONNXGATE_RETURN_IF_ERROR(
      WriteStringAttribute(f, "content_sha256", GoldenContentSha256(golden), root));
  H5Where sets_where = root.Child("sets");
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle sets, CreateGroup(f, "sets", sets_where));
  for (size_t i = 0; i < golden.sets.size(); ++i) {
    std::string name = std::to_string(i);
    H5Where set_where = sets_where.Child(name);
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle set, CreateGroup(sets.get(), name, set_where));
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle inputs,
                              CreateGroup(set.get(), "inputs", set_where.Child("inputs")));
    ONNXGATE_RETURN_IF_ERROR(
        WriteValues(inputs.get(), golden.sets[i].inputs, set_where.Child("inputs")));
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle outputs,
                              CreateGroup(set.get(), "outputs", set_where.Child("outputs")));
    ONNXGATE_RETURN_IF_ERROR(
        WriteValues(outputs.get(), golden.sets[i].outputs, set_where.Child("outputs")));
    if (golden.format_version >= 3 && !golden.sets[i].intermediates.empty()) {
      H5Where at = set_where.Child("intermediates");
      ONNXGATE_ASSIGN_OR_RETURN(H5Handle intermediates,
                                CreateGroup(set.get(), "intermediates", at));
      ONNXGATE_RETURN_IF_ERROR(WriteValues(intermediates.get(), golden.sets[i].intermediates, at));
    }
  }
  sets.Reset();
  // Closing flushes; a failure here (disk full) must fail the write.
  return file.Close(root);
}

}  // namespace

Status WriteGolden(const std::string& path, const GoldenFile& golden) {
  std::lock_guard<std::mutex> lock(Hdf5Mutex());
  HardenHdf5Library();
  ONNXGATE_RETURN_IF_ERROR(Validate(path, golden));
  try {
    GoldenFile dated = golden;
    if (dated.created.empty()) dated.created = UtcNowIso8601();
    dated.format_version = GoldenFormatVersionFor(golden);
    return WriteThroughTempFile(
        path, [&](const std::string& temp) { return WriteTo(temp, path, dated); });
  } catch (const std::bad_alloc&) {
    return Unavailable(path + ": out of memory while writing the golden");
  }
}

int64_t GoldenFormatVersionFor(const GoldenFile& golden) {
  if (golden.layerwise_every != 1 || !golden.layerwise_precision.empty()) return 3;
  for (const GoldenSet& set : golden.sets) {
    if (!set.intermediates.empty()) return 3;
  }
  return 2;
}

std::string EncodeGoldenName(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '%') {
      out += "%25";
    } else if (c == '/') {
      out += "%2F";
    } else if (c == '.' && i == 0) {
      out += "%2E";  // "." and names starting with it mean something else to HDF5 paths
    } else {
      out += c;
    }
  }
  return out;
}

StatusOr<std::string> DecodeGoldenName(const std::string& link_name) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < link_name.size(); ++i) {
    if (link_name[i] != '%') {
      out += link_name[i];
      continue;
    }
    if (i + 2 >= link_name.size()) {
      return InvalidArgument("bad escape at the end of '" + link_name + "'");
    }
    int hi = hex(link_name[i + 1]), lo = hex(link_name[i + 2]);
    if (hi < 0 || lo < 0) return InvalidArgument("bad escape in '" + link_name + "'");
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::string FormatOpsetImports(const std::vector<std::pair<std::string, int64_t>>& imports) {
  std::string out;
  for (const auto& [domain, version] : imports) {
    if (!out.empty()) out += ",";
    out += DomainDisplayName(domain) + ":" + std::to_string(version);
  }
  return out;
}

bool IsUtcTimestamp(const std::string& s) {
  static const char kPattern[] = "dddd-dd-ddTdd:dd:ddZ";
  if (s.size() != sizeof(kPattern) - 1) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    bool digit = s[i] >= '0' && s[i] <= '9';
    if (kPattern[i] == 'd' ? !digit : s[i] != kPattern[i]) return false;
  }
  return true;
}

}  // namespace onnxgate
