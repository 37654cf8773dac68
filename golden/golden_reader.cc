// ReadGolden: opens a golden file, checks its root attributes, reads every set and checks the
// golden's checksums.
#include <algorithm>
#include <cmath>
#include <new>

#include "golden/golden_checksum.h"
#include "golden/golden_file.h"
#include "golden/golden_file_open.h"
#include "golden/golden_layerwise.h"
#include "golden/golden_value_io.h"
#include "golden/hdf5_containment.h"
#include "golden/hdf5_handle.h"
#include "runtime/base/sha256.h"
#include "runtime/onnx/domain.h"

namespace onnxgate {

namespace {

// What a format asks of the checksums: version 2 must have them; version 1 has none, but one
// that carries them (a version 2 file relabelled) has them checked all the same.
struct ChecksumRule {
  bool required = false;
};

// The digest stored in attribute `name` of `obj`, or "" when there is none and none is required.
StatusOr<std::string> ReadDigest(hid_t obj, const char* name, const ChecksumRule& rule,
                                 const H5Where& where) {
  if (!rule.required && !HasAttribute(obj, name)) return std::string();
  ONNXGATE_ASSIGN_OR_RETURN(std::string digest, ReadStringAttribute(obj, name, where));
  if (!IsSha256Hex(digest)) {
    return DataLoss(where.Prefix() + "golden corrupted: " + name + " '" + digest +
                    "' is not 64 lowercase hex digits");
  }
  return digest;
}

std::string Short(const std::string& digest) { return digest.substr(0, 16) + "..."; }

StatusOr<std::optional<double>> ReadTolerance(hid_t obj, const char* which, const H5Where& where) {
  if (!HasAttribute(obj, which)) return std::optional<double>();
  ONNXGATE_ASSIGN_OR_RETURN(double value, ReadDoubleAttribute(obj, which, where));
  if (!std::isfinite(value) || value < 0) {
    return DataLoss(where.Prefix() + which + " is " + std::to_string(value) +
                    ", expected a finite number >= 0");
  }
  return std::optional<double>(value);
}

// A value as read, with the digest its sha256 attribute holds ("" when it has none).
struct ReadValueResult {
  GoldenValue value;
  std::string stored_sha256;
  H5Where where;
};

StatusOr<ReadValueResult> ReadValue(hid_t obj, const std::string& link, bool output,
                                    const ChecksumRule& rule, const H5Where& at,
                                    GoldenReadBudget* budget) {
  ReadValueResult r{GoldenValue(), "", at};
  GoldenValue& v = r.value;
  ONNXGATE_ASSIGN_OR_RETURN(v.name, ReadStringAttribute(obj, "name", at));
  if (v.name.empty() || EncodeGoldenName(v.name) != link) {
    return DataLoss(at.Prefix() + "name attribute '" + v.name +
                    "' does not match the object's name (expected the object to be called '" +
                    EncodeGoldenName(v.name) + "')");
  }
  ONNXGATE_ASSIGN_OR_RETURN(v.index, ReadInt64Attribute(obj, "index", at));
  if (v.index < 0)
    return DataLoss(at.Prefix() + "index " + std::to_string(v.index) + " is negative");
  ONNXGATE_ASSIGN_OR_RETURN(r.stored_sha256, ReadDigest(obj, "sha256", rule, at));
  try {
    ONNXGATE_ASSIGN_OR_RETURN(v.value, ReadValueObject(obj, at, budget));
  } catch (const std::bad_alloc&) {
    return Unavailable(at.Prefix() + "out of memory while reading the value");
  }
  if (output) {
    ONNXGATE_ASSIGN_OR_RETURN(v.rtol, ReadTolerance(obj, "rtol", at));
    ONNXGATE_ASSIGN_OR_RETURN(v.atol, ReadTolerance(obj, "atol", at));
  }
  return r;
}

// The values of one inputs/outputs group, sorted by index. The structure is checked first, then
// each value against its sha256, so that a more specific message wins.
StatusOr<std::vector<GoldenValue>> ReadValues(hid_t group, bool outputs, const ChecksumRule& rule,
                                              const H5Where& where, GoldenReadBudget* budget) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> links, ChildNames(group, where));
  std::vector<ReadValueResult> read;
  for (const std::string& link : links) {
    H5Where at = where.Child(link);
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle obj, OpenObject(group, link, where));
    ONNXGATE_ASSIGN_OR_RETURN(ReadValueResult r,
                              ReadValue(obj.get(), link, outputs, rule, at, budget));
    read.push_back(std::move(r));
  }
  std::sort(read.begin(), read.end(), [](const ReadValueResult& a, const ReadValueResult& b) {
    return a.value.index < b.value.index;
  });
  for (size_t i = 1; i < read.size(); ++i) {
    if (read[i].value.index == read[i - 1].value.index) {
      return DataLoss(where.Prefix() + "'" + read[i - 1].value.name + "' and '" +
                      read[i].value.name + "' both have index " +
                      std::to_string(read[i].value.index));
    }
  }
  std::vector<GoldenValue> values;
  for (ReadValueResult& r : read) {
    if (!r.stored_sha256.empty()) {
      std::string computed = GoldenValueSha256(r.value);
      if (computed != r.stored_sha256) {
        return DataLoss(r.where.Prefix() + "golden corrupted: its sha256 attribute is " +
                        Short(r.stored_sha256) + " but what is stored hashes to " +
                        Short(computed) +
                        " (its data, shape, type, name, index or tolerance changed after it was "
                        "written)");
      }
    }
    values.push_back(std::move(r.value));
  }
  return values;
}

StatusOr<GoldenSet> ReadSet(hid_t set, int64_t version, const ChecksumRule& rule,
                            const H5Where& where, GoldenReadBudget* budget) {
  GoldenSet out;
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle inputs, OpenGroup(set, "inputs", where));
  ONNXGATE_ASSIGN_OR_RETURN(out.inputs,
                            ReadValues(inputs.get(), false, rule, where.Child("inputs"), budget));
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle outputs, OpenGroup(set, "outputs", where));
  ONNXGATE_ASSIGN_OR_RETURN(out.outputs,
                            ReadValues(outputs.get(), true, rule, where.Child("outputs"), budget));
  if (version >= 3) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> children, ChildNames(set, where));
    if (std::find(children.begin(), children.end(), "intermediates") != children.end()) {
      ONNXGATE_ASSIGN_OR_RETURN(H5Handle intermediates, OpenGroup(set, "intermediates", where));
      ONNXGATE_ASSIGN_OR_RETURN(
          out.intermediates,
          ReadValues(intermediates.get(), false, rule, where.Child("intermediates"), budget));
    }
  }
  return out;
}

StatusOr<GoldenFile> ReadFrom(const std::string& path, const GoldenReadLimits& limits) {
  H5Where root{path, "/"};
  ONNXGATE_ASSIGN_OR_RETURN(H5Handle file, OpenGoldenFile(path));
  hid_t f = file.get();
  ONNXGATE_ASSIGN_OR_RETURN(std::string format, ReadStringAttribute(f, "format", root));
  if (format != kGoldenFormat) {
    return InvalidArgument(root.Prefix() + "format is '" + format + "', expected '" +
                           kGoldenFormat + "' (not an onnxgate golden)");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t version, ReadInt64Attribute(f, "format_version", root));
  if (version < kGoldenOldestFormatVersion || version > kGoldenFormatVersion) {
    return Unimplemented(root.Prefix() + "format_version " + std::to_string(version) +
                         " is not supported (this reader knows versions " +
                         std::to_string(kGoldenOldestFormatVersion) + " to " +
                         std::to_string(kGoldenFormatVersion) + ")");
  }
  const ChecksumRule rule{version >= 2};
  GoldenFile golden;
  golden.format_version = version;
  ONNXGATE_ASSIGN_OR_RETURN(golden.producer, ReadStringAttribute(f, "producer", root));
  ONNXGATE_ASSIGN_OR_RETURN(golden.model_sha256, ReadStringAttribute(f, "model_sha256", root));
  if (!IsSha256Hex(golden.model_sha256)) {
    return InvalidArgument(root.Prefix() + "model_sha256 '" + golden.model_sha256 +
                           "' is not 64 lowercase hex digits");
  }
  if (HasAttribute(f, "model_files_sha256")) {
    ONNXGATE_ASSIGN_OR_RETURN(golden.model_files_sha256,
                              ReadStringAttribute(f, "model_files_sha256", root));
    if (!IsSha256Hex(golden.model_files_sha256)) {
      return InvalidArgument(root.Prefix() + "model_files_sha256 '" + golden.model_files_sha256 +
                             "' is not 64 lowercase hex digits");
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string content_sha256,
                            ReadDigest(f, "content_sha256", rule, root));
  ONNXGATE_ASSIGN_OR_RETURN(std::string imports, ReadStringAttribute(f, "opset_imports", root));
  StatusOr<std::vector<std::pair<std::string, int64_t>>> parsed = ParseOpsetImports(imports);
  if (!parsed.ok()) return parsed.status().WithContext(root.Prefix() + "opset_imports");
  golden.opset_imports = std::move(parsed).value();
  ONNXGATE_ASSIGN_OR_RETURN(golden.created, ReadStringAttribute(f, "created", root));
  if (HasAttribute(f, "source")) {
    ONNXGATE_ASSIGN_OR_RETURN(golden.source, ReadStringAttribute(f, "source", root));
  }
  if (HasAttribute(f, "layerwise_every")) {
    ONNXGATE_ASSIGN_OR_RETURN(golden.layerwise_every,
                              ReadInt64Attribute(f, "layerwise_every", root));
  }
  if (HasAttribute(f, "layerwise_precision")) {
    ONNXGATE_ASSIGN_OR_RETURN(golden.layerwise_precision,
                              ReadStringAttribute(f, "layerwise_precision", root));
  }
  ONNXGATE_RETURN_IF_ERROR(CheckLayerwiseAttributes(golden, root.Prefix()));

  ONNXGATE_ASSIGN_OR_RETURN(H5Handle sets, OpenGroup(f, "sets", root));
  H5Where sets_where = root.Child("sets");
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> names, ChildNames(sets.get(), sets_where));
  golden.sets.resize(names.size());
  GoldenReadBudget budget(limits);
  for (const std::string& name : names) {
    std::optional<size_t> index = ParseIndexLink(name, names.size());
    if (!index) {
      return DataLoss(sets_where.Prefix() + "unexpected child '" + name + "' (expected sets 0.." +
                      std::to_string(names.size() - 1) + ")");
    }
    ONNXGATE_ASSIGN_OR_RETURN(H5Handle set, OpenGroup(sets.get(), name, sets_where));
    ONNXGATE_ASSIGN_OR_RETURN(golden.sets[*index],
                              ReadSet(set.get(), version, rule, sets_where.Child(name), &budget));
  }
  if (!content_sha256.empty()) {
    std::string computed = GoldenContentSha256(golden);
    if (computed != content_sha256) {
      return DataLoss(root.Prefix() + "golden corrupted: content_sha256 is " +
                      Short(content_sha256) + " but the content hashes to " + Short(computed) +
                      " (a value, data set or root attribute was added, removed or changed after "
                      "it was written)");
    }
  }
  return golden;
}

}  // namespace

StatusOr<GoldenFile> ReadGolden(const std::string& path) {
  return ReadGolden(path, GoldenReadLimits());
}

StatusOr<GoldenFile> ReadGolden(const std::string& path, const GoldenReadLimits& limits) {
  std::lock_guard<std::mutex> lock(Hdf5Mutex());
  HardenHdf5Library();
  try {
    return ReadFrom(path, limits);
  } catch (const std::bad_alloc&) {
    return Unavailable(path + ": out of memory while reading the golden");
  }
}

StatusOr<std::vector<std::pair<std::string, int64_t>>> ParseOpsetImports(const std::string& text) {
  std::vector<std::pair<std::string, int64_t>> imports;
  if (text.empty()) return imports;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    size_t colon = item.rfind(':');
    std::string digits = colon == std::string::npos ? "" : item.substr(colon + 1);
    bool numeric = !digits.empty() && digits.size() <= 18 &&
                   digits.find_first_not_of("0123456789") == std::string::npos;
    if (colon == 0 || !numeric) {
      return InvalidArgument("'" + item + "' is not domain:version (in '" + text + "')");
    }
    std::string domain = item.substr(0, colon);
    imports.emplace_back(NormalizeDomain(domain), std::stoll(digits));
    start = end + 1;
  }
  return imports;
}

}  // namespace onnxgate
