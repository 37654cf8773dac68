// The ONNX backend test importer: case folders in, models + goldens + suite.json out.
#include "golden/importer.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "golden/golden_file.h"
#include "golden/onnx_test_case.h"
#include "golden/suite_json.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/sha256.h"
#include "runtime/base/utc_time.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;
using Json = SuiteJson;

// The tags the importer derives from a case: recomputed on a re-import, while any other is kept.
const std::vector<std::string> kImporterTags = {"expanded", "sequence", "optional"};

// The case-entry keys the importer writes; a re-import keeps every other key of an existing entry.
const std::vector<std::string> kImporterCaseKeys = {"name",     "model",         "golden",
                                                    "op_types", "opset_imports", "tags"};

// The suite-level keys the importer writes itself (description, source, license and
// default_tolerance are taken from the options or, when not given, kept).
const char* const kImporterSuiteKeys[] = {
    "name",           "description",       "source", "license", "golden_producer",
    "format_version", "default_tolerance", "cases"};

template <size_t N>
bool Contains(const char* const (&list)[N], const std::string& s) {
  return std::any_of(list, list + N, [&s](const char* k) { return s == k; });
}

bool IsSafeName(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

Status CheckOptions(const ImportOptions& o) {
  if (!IsSafeName(o.suite_name)) {
    return InvalidArgument("suite name '" + o.suite_name +
                           "' must be letters, digits, '_', '-' and '.' only");
  }
  std::error_code ec;
  if (!fs::is_directory(o.source_dir, ec)) {
    return NotFound("source folder " + o.source_dir + " does not exist or is not a folder");
  }
  if (o.repo_root.empty()) return InvalidArgument("the repository root must be given");
  if (o.producer.empty()) return InvalidArgument("the golden producer must be given");
  if (!o.created.empty() && !IsUtcTimestamp(o.created)) {
    return InvalidArgument("created time '" + o.created + "' is not like 2026-11-21T03:00:00Z");
  }
  if ((o.default_rtol && !(*o.default_rtol >= 0)) || (o.default_atol && !(*o.default_atol >= 0))) {
    return InvalidArgument("default tolerances must be numbers >= 0");
  }
  return OkStatus();
}

StatusOr<std::vector<std::string>> CaseFolders(const ImportOptions& o) {
  std::vector<std::string> names;
  std::error_code ec;
  fs::directory_iterator it(o.source_dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name.compare(0, o.case_prefix.size(), o.case_prefix) == 0 && it->is_directory(type_ec)) {
      names.push_back(name);
    }
  }
  if (ec) return NotFound("cannot list " + o.source_dir + ": " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> Tags(const OnnxTestCase& c) {
  std::vector<std::string> tags;
  const std::string suffix = "_expanded";
  if (c.name.size() > suffix.size() &&
      c.name.compare(c.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    tags.push_back("expanded");
  }
  auto uses = [&](Value::Kind kind) {
    auto has = [kind](const DeclaredValue& d) { return d.kind == kind; };
    return std::any_of(c.inputs.begin(), c.inputs.end(), has) ||
           std::any_of(c.outputs.begin(), c.outputs.end(), has);
  };
  if (uses(Value::Kind::kSequence)) tags.push_back("sequence");
  if (uses(Value::Kind::kOptional)) tags.push_back("optional");
  return tags;
}

// Copies the model (and its external data, in a folder of its own so that file names of
// different cases cannot collide) below the suite folder; returns its path relative to it.
StatusOr<std::string> WriteModel(const OnnxTestCase& c, const fs::path& suite_dir) {
  if (c.external_data.empty()) {
    std::string rel = "models/" + c.name + ".onnx";
    ONNXGATE_RETURN_IF_ERROR(WriteFileAtomically((suite_dir / rel).string(), c.model_bytes));
    return rel;
  }
  std::string rel = "models/" + c.name + "/model.onnx";
  ONNXGATE_RETURN_IF_ERROR(WriteFileAtomically((suite_dir / rel).string(), c.model_bytes));
  // The bytes were read when the case was loaded, through the same checks the runtime applies.
  for (const OnnxTestCase::ExternalFile& file : c.external_data) {
    ONNXGATE_RETURN_IF_ERROR(
        WriteFileAtomically((suite_dir / "models" / c.name / file.location).string(), file.bytes));
  }
  return rel;
}

// A string option, else the existing suite's string value of `key`, else "".
Json StringOr(const std::string& option, const Json& old, const char* key) {
  if (!option.empty()) return option;
  if (auto it = old.find(key); it != old.end() && it->is_string()) return *it;
  return "";
}

// The tolerance options over the existing suite's default_tolerance over ONNX's defaults.
Json DefaultTolerance(const ImportOptions& o, const Json& old) {
  Json t = {{"rtol", 1e-3}, {"atol", 1e-7}};
  if (auto it = old.find("default_tolerance"); it != old.end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) t[key] = value;
  }
  if (o.default_rtol) t["rtol"] = *o.default_rtol;
  if (o.default_atol) t["atol"] = *o.default_atol;
  return t;
}

}  // namespace

StatusOr<ImportReport> ImportOnnxTests(const ImportOptions& o) {
  ONNXGATE_RETURN_IF_ERROR(CheckOptions(o));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> names, CaseFolders(o));
  const fs::path suite_dir = fs::path(o.repo_root) / "suites" / o.suite_name;
  const fs::path golden_dir = fs::path(o.repo_root) / "golden" / "data" / o.suite_name;
  const std::string created = o.created.empty() ? UtcNowIso8601() : o.created;
  // Everything is written under the suite folder's lock (suite_json.h), so a concurrent record
  // or import into the suite waits instead of losing its cases.
  ONNXGATE_ASSIGN_OR_RETURN(FolderLock suite_lock,
                            LockSuiteJson((suite_dir / "suite.json").string()));
  // Read before anything is written: a suite.json that cannot be merged stops the import.
  ONNXGATE_ASSIGN_OR_RETURN(Json old_suite,
                            ReadSuiteJsonForUpdate((suite_dir / "suite.json").string()));
  std::map<std::string, Json> old_cases = SuiteCasesByName(old_suite);

  ImportReport report;
  std::map<std::string, Json> cases;  // by name, so that the file lists them sorted
  for (const std::string& name : names) {
    StatusOr<OnnxTestCase> loaded = LoadOnnxTestCase((fs::path(o.source_dir) / name).string());
    if (!loaded.ok()) {
      report.skipped.push_back({name, loaded.status().ToString()});
      continue;
    }
    const OnnxTestCase& c = *loaded;
    GoldenFile golden;
    golden.producer = o.producer;
    golden.model_sha256 = Sha256Hex(c.model_bytes);
    // Over the bytes that are about to be written beside the model, as the case runner will hash
    // them from disk (runtime/model/model_file.h), through the same function.
    std::vector<ExternalFileSha256> external;
    for (const OnnxTestCase::ExternalFile& file : c.external_data) {
      external.push_back({file.location, Sha256Hex(file.bytes)});
    }
    StatusOr<std::string> model_files =
        CombineModelFilesSha256(golden.model_sha256, std::move(external));
    if (!model_files.ok()) {
      report.skipped.push_back({name, model_files.status().ToString()});
      continue;
    }
    golden.model_files_sha256 = std::move(model_files).value();
    golden.opset_imports = c.opset_imports;
    golden.created = created;
    golden.source = o.source;
    golden.sets = c.sets;
    Status written = WriteGolden((golden_dir / (name + ".h5")).string(), golden);
    if (written.code() == StatusCode::kInvalidArgument) {  // data the format cannot hold
      report.skipped.push_back({name, written.ToString()});
      continue;
    }
    ONNXGATE_RETURN_IF_ERROR(written);
    ONNXGATE_ASSIGN_OR_RETURN(std::string model_rel, WriteModel(c, suite_dir));

    Json opsets = Json::object();
    for (const auto& [domain, version] : c.opset_imports) opsets[domain] = version;
    Json entry = {{"name", name},
                  {"model", model_rel},
                  {"golden", "../../golden/data/" + o.suite_name + "/" + name + ".h5"},
                  {"op_types", c.op_types},
                  {"opset_imports", opsets},
                  {"tags", Tags(c)}};
    auto old = old_cases.find(name);
    if (old != old_cases.end()) {
      entry = MergeCaseEntry(std::move(entry), old->second, kImporterCaseKeys, kImporterTags);
      old_cases.erase(old);
    }
    cases[name] = std::move(entry);
    report.imported.push_back(name);
    report.data_sets += static_cast<int64_t>(c.sets.size());
  }

  for (auto& [name, entry] : old_cases) {
    report.kept.push_back(name);
    cases[name] = std::move(entry);
  }

  Json suite = {{"name", o.suite_name},
                {"description", StringOr(o.description, old_suite, "description")},
                {"source", StringOr(o.source, old_suite, "source")},
                {"license", StringOr(o.license, old_suite, "license")},
                {"golden_producer", o.producer},
                {"format_version", kSuiteFormatVersion},
                {"default_tolerance", DefaultTolerance(o, old_suite)}};
  for (const auto& [key, value] : old_suite.items()) {
    if (!Contains(kImporterSuiteKeys, key)) suite[key] = value;
  }
  Json& listed = suite["cases"] = Json::array();
  for (auto& [name, entry] : cases) listed.push_back(std::move(entry));
  report.suite_json = (suite_dir / "suite.json").string();
  // Replacing invalid UTF-8 keeps dump() from throwing on odd bytes in options or names.
  ONNXGATE_RETURN_IF_ERROR(WriteSuiteJson(report.suite_json, suite));
  return report;
}

}  // namespace onnxgate
