// ReadGolden: opens a golden file, checks its root attributes and reads every set.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <new>

#include "golden/golden_file.h"
#include "golden/golden_value_io.h"
#include "golden/hdf5_handle.h"
#include "golden/sha256.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;

StatusOr<std::optional<double>> ReadTolerance(hid_t obj, const char* which, const H5Where& where) {
  if (!HasAttribute(obj, which)) return std::optional<double>();
  ASSIGN_OR_RETURN(double value, ReadDoubleAttribute(obj, which, where));
  if (!std::isfinite(value) || value < 0) {
    return DataLoss(where.Prefix() + which + " is " + std::to_string(value) +
                    ", expected a finite number >= 0");
  }
  return std::optional<double>(value);
}

StatusOr<std::vector<GoldenValue>> ReadValues(hid_t group, bool outputs, const H5Where& where) {
  ASSIGN_OR_RETURN(std::vector<std::string> links, ChildNames(group, where));
  std::vector<GoldenValue> values;
  for (const std::string& link : links) {
    H5Where at = where.Child(link);
    ASSIGN_OR_RETURN(H5Handle obj, OpenObject(group, link, where));
    GoldenValue v;
    ASSIGN_OR_RETURN(v.name, ReadStringAttribute(obj.get(), "name", at));
    if (v.name.empty() || EncodeGoldenName(v.name) != link) {
      return DataLoss(at.Prefix() + "name attribute '" + v.name +
                      "' does not match the object's name (expected the object to be called '" +
                      EncodeGoldenName(v.name) + "')");
    }
    ASSIGN_OR_RETURN(v.index, ReadInt64Attribute(obj.get(), "index", at));
    if (v.index < 0) return DataLoss(at.Prefix() + "index " + std::to_string(v.index) + " is negative");
    ASSIGN_OR_RETURN(v.value, ReadValueObject(obj.get(), at));
    if (outputs) {
      ASSIGN_OR_RETURN(v.rtol, ReadTolerance(obj.get(), "rtol", at));
      ASSIGN_OR_RETURN(v.atol, ReadTolerance(obj.get(), "atol", at));
    }
    values.push_back(std::move(v));
  }
  std::sort(values.begin(), values.end(),
            [](const GoldenValue& a, const GoldenValue& b) { return a.index < b.index; });
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i].index == values[i - 1].index) {
      return DataLoss(where.Prefix() + "'" + values[i - 1].name + "' and '" + values[i].name +
                      "' both have index " + std::to_string(values[i].index));
    }
  }
  return values;
}

StatusOr<GoldenSet> ReadSet(hid_t set, const H5Where& where) {
  GoldenSet out;
  ASSIGN_OR_RETURN(H5Handle inputs, OpenGroup(set, "inputs", where));
  ASSIGN_OR_RETURN(out.inputs, ReadValues(inputs.get(), false, where.Child("inputs")));
  ASSIGN_OR_RETURN(H5Handle outputs, OpenGroup(set, "outputs", where));
  ASSIGN_OR_RETURN(out.outputs, ReadValues(outputs.get(), true, where.Child("outputs")));
  return out;
}

StatusOr<H5Handle> OpenFile(const std::string& path, const H5Where& root) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) return NotFound(path + ": no such file");
  if (fs::is_directory(status)) return InvalidArgument(path + ": is a folder, not a golden file");
#if H5_VERSION_GE(1, 12, 0)
  htri_t is_hdf5 = H5Fis_accessible(path.c_str(), H5P_DEFAULT);
#else
  htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
#endif
  if (is_hdf5 <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return DataLoss(path + ": not an HDF5 file (no HDF5 signature found)");
  }
  ASSIGN_OR_RETURN(H5Handle fapl, H5Take(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, StatusCode::kInternal,
                                         root, "cannot create a property list"));
#if H5_VERSION_GE(1, 10, 7)
  // Goldens are replaced by rename, never changed in place, so the lock only gets in the way
  // (read-only checkouts, network file systems).
  RETURN_IF_ERROR(H5Check(H5Pset_file_locking(fapl.get(), 0, 1), StatusCode::kInternal, root,
                          "cannot turn off file locking"));
#endif
  return H5Take(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose, StatusCode::kDataLoss,
                root, "cannot open the HDF5 file (truncated or corrupt?)");
}

StatusOr<GoldenFile> ReadFrom(const std::string& path) {
  H5Where root{path, "/"};
  ASSIGN_OR_RETURN(H5Handle file, OpenFile(path, root));
  hid_t f = file.get();
  ASSIGN_OR_RETURN(std::string format, ReadStringAttribute(f, "format", root));
  if (format != kGoldenFormat) {
    return InvalidArgument(root.Prefix() + "format is '" + format + "', expected '" + kGoldenFormat +
                           "' (not an onnxgate golden)");
  }
  ASSIGN_OR_RETURN(int64_t version, ReadInt64Attribute(f, "format_version", root));
  if (version != kGoldenFormatVersion) {
    return Unimplemented(root.Prefix() + "format_version " + std::to_string(version) +
                         " is not supported (this reader knows version " +
                         std::to_string(kGoldenFormatVersion) + ")");
  }
  GoldenFile golden;
  ASSIGN_OR_RETURN(golden.producer, ReadStringAttribute(f, "producer", root));
  ASSIGN_OR_RETURN(golden.model_sha256, ReadStringAttribute(f, "model_sha256", root));
  if (!IsSha256Hex(golden.model_sha256)) {
    return InvalidArgument(root.Prefix() + "model_sha256 '" + golden.model_sha256 +
                           "' is not 64 lowercase hex digits");
  }
  ASSIGN_OR_RETURN(std::string imports, ReadStringAttribute(f, "opset_imports", root));
  StatusOr<std::vector<std::pair<std::string, int64_t>>> parsed = ParseOpsetImports(imports);
  if (!parsed.ok()) return parsed.status().WithContext(root.Prefix() + "opset_imports");
  golden.opset_imports = std::move(parsed).value();
  ASSIGN_OR_RETURN(golden.created, ReadStringAttribute(f, "created", root));
  if (HasAttribute(f, "source")) {
    ASSIGN_OR_RETURN(golden.source, ReadStringAttribute(f, "source", root));
  }

  ASSIGN_OR_RETURN(H5Handle sets, OpenGroup(f, "sets", root));
  H5Where sets_where = root.Child("sets");
  ASSIGN_OR_RETURN(std::vector<std::string> names, ChildNames(sets.get(), sets_where));
  golden.sets.resize(names.size());
  for (const std::string& name : names) {
    std::optional<size_t> index = ParseIndexLink(name, names.size());
    if (!index) {
      return DataLoss(sets_where.Prefix() + "unexpected child '" + name + "' (expected sets 0.." +
                      std::to_string(names.size() - 1) + ")");
    }
    ASSIGN_OR_RETURN(H5Handle set, OpenGroup(sets.get(), name, sets_where));
    ASSIGN_OR_RETURN(golden.sets[*index], ReadSet(set.get(), sets_where.Child(name)));
  }
  return golden;
}

}  // namespace

StatusOr<GoldenFile> ReadGolden(const std::string& path) {
  std::lock_guard<std::mutex> lock(Hdf5Mutex());
  SilenceHdf5Errors();
  try {
    return ReadFrom(path);
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
    imports.emplace_back(domain == "ai.onnx" ? "" : domain, std::stoll(digits));
    start = end + 1;
  }
  return imports;
}

}  // namespace onnxgate
