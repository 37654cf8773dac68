// The ONNX backend test importer: case folders in, models + goldens + suite.json out.
#include "golden/importer.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "golden/golden_file.h"
#include "golden/onnx_test_case.h"
#include "golden/sha256.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/utc_time.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr int kSuiteFormatVersion = 1;

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
  if (!(o.default_rtol >= 0) || !(o.default_atol >= 0)) {
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
    RETURN_IF_ERROR(WriteFileAtomically((suite_dir / rel).string(), c.model_bytes));
    return rel;
  }
  std::string rel = "models/" + c.name + "/model.onnx";
  RETURN_IF_ERROR(WriteFileAtomically((suite_dir / rel).string(), c.model_bytes));
  for (const std::string& location : c.external_data) {
    ASSIGN_OR_RETURN(std::string bytes, ReadFile((fs::path(c.dir) / location).string()));
    RETURN_IF_ERROR(
        WriteFileAtomically((suite_dir / "models" / c.name / location).string(), bytes));
  }
  return rel;
}

}  // namespace

StatusOr<ImportReport> ImportOnnxTests(const ImportOptions& o) {
  RETURN_IF_ERROR(CheckOptions(o));
  ASSIGN_OR_RETURN(std::vector<std::string> names, CaseFolders(o));
  const fs::path suite_dir = fs::path(o.repo_root) / "suites" / o.suite_name;
  const fs::path golden_dir = fs::path(o.repo_root) / "golden" / "data" / o.suite_name;
  const std::string created = o.created.empty() ? UtcNowIso8601() : o.created;

  ImportReport report;
  Json cases = Json::array();
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
    golden.opset_imports = c.opset_imports;
    golden.created = created;
    golden.source = o.source;
    golden.sets = c.sets;
    Status written = WriteGolden((golden_dir / (name + ".h5")).string(), golden);
    if (written.code() == StatusCode::kInvalidArgument) {  // data the format cannot hold
      report.skipped.push_back({name, written.ToString()});
      continue;
    }
    RETURN_IF_ERROR(written);
    ASSIGN_OR_RETURN(std::string model_rel, WriteModel(c, suite_dir));

    Json opsets = Json::object();
    for (const auto& [domain, version] : c.opset_imports) opsets[domain] = version;
    Json entry = {{"name", name},
                  {"model", model_rel},
                  {"golden", "../../golden/data/" + o.suite_name + "/" + name + ".h5"},
                  {"op_types", c.op_types},
                  {"opset_imports", opsets},
                  {"tags", Tags(c)}};
    cases.push_back(std::move(entry));
    report.imported.push_back(name);
    report.data_sets += static_cast<int64_t>(c.sets.size());
  }

  Json suite = {{"name", o.suite_name},
                {"description", o.description},
                {"source", o.source},
                {"license", o.license},
                {"golden_producer", o.producer},
                {"format_version", kSuiteFormatVersion},
                {"default_tolerance", {{"rtol", o.default_rtol}, {"atol", o.default_atol}}},
                {"cases", std::move(cases)}};
  report.suite_json = (suite_dir / "suite.json").string();
  // Replacing invalid UTF-8 keeps dump() from throwing on odd bytes in options or names.
  RETURN_IF_ERROR(WriteFileAtomically(
      report.suite_json, suite.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"));
  return report;
}

}  // namespace onnxgate
