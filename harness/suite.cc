// suite.json parsing with errors that name the file and the key.
#include "harness/suite.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "runtime/base/atomic_file.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/nesting_depth.h"
#include "runtime/onnx/domain.h"

namespace onnxgate {

namespace fs = std::filesystem;
using nlohmann::json;

int64_t SuiteCase::default_opset() const {
  for (const auto& [domain, version] : opset_imports) {
    if (IsDefaultDomain(domain)) return version;
  }
  return 0;
}

namespace {

// Whether `path`, with every symbolic link in it resolved, lies strictly inside `dir` (which is
// already canonical).
bool Inside(const std::string& path, const fs::path& dir) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(path, ec);
  if (ec) return false;
  const fs::path rel = resolved.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  Status Error(const std::string& where, const std::string& what) const {
    return InvalidArgument(path_ + ": " + where + ": " + what);
  }

  StatusOr<std::string> String(const json& obj, const std::string& key, const std::string& where,
                               bool required) const {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) return Error(where, "missing key '" + key + "'");
      return std::string();
    }
    if (!it->is_string()) return Error(where + "." + key, "must be a string");
    return it->get<std::string>();
  }

  StatusOr<std::vector<std::string>> Strings(const json& obj, const std::string& key,
                                             const std::string& where) const {
    std::vector<std::string> out;
    auto it = obj.find(key);
    if (it == obj.end()) return out;
    if (!it->is_array()) return Error(where + "." + key, "must be an array of strings");
    for (const auto& v : *it) {
      if (!v.is_string()) return Error(where + "." + key, "must be an array of strings");
      out.push_back(v.get<std::string>());
    }
    return out;
  }

  StatusOr<ToleranceOverride> Tolerance(const json& obj, const std::string& where) const {
    ToleranceOverride t;
    if (!obj.is_object()) return Error(where, "must be an object with rtol and/or atol");
    for (const char* key : {"rtol", "atol"}) {
      auto it = obj.find(key);
      if (it == obj.end()) continue;
      if (!it->is_number()) return Error(where + "." + key, "must be a number");
      (std::string(key) == "rtol" ? t.rtol : t.atol) = it->get<double>();
    }
    ONNXGATE_RETURN_IF_ERROR(t.Validate(path_ + ": " + where));
    return t;
  }

  // `suite_dir` and `golden_dir` are canonical: the folders a case's files must stay inside.
  StatusOr<SuiteCase> Case(const json& c, const std::string& dir, const fs::path& suite_dir,
                           const fs::path& golden_dir, size_t index) const {
    std::string where = "cases[" + std::to_string(index) + "]";
    if (!c.is_object()) return Error(where, "must be an object");
    SuiteCase sc;
    ONNXGATE_ASSIGN_OR_RETURN(sc.name, String(c, "name", where, true));
    where += " ('" + sc.name + "')";
    ONNXGATE_ASSIGN_OR_RETURN(std::string model, String(c, "model", where, true));
    ONNXGATE_ASSIGN_OR_RETURN(std::string golden, String(c, "golden", where, true));
    sc.model_path = (fs::path(dir) / model).lexically_normal().string();
    sc.golden_path = (fs::path(dir) / golden).lexically_normal().string();
    // A suite names files by relative path; a suite from anywhere must not make the gate read
    // outside its own folder (the model) or the repository's golden/ (the golden).
    if (!Inside(sc.model_path, suite_dir)) {
      return Error(where + ".model",
                   "'" + model + "' leads outside the suite folder " + suite_dir.string());
    }
    if (!Inside(sc.golden_path, golden_dir) && !Inside(sc.golden_path, suite_dir)) {
      return Error(where + ".golden", "'" + golden + "' leads outside both the suite folder and " +
                                          golden_dir.string());
    }
    ONNXGATE_ASSIGN_OR_RETURN(sc.op_types, Strings(c, "op_types", where));
    ONNXGATE_ASSIGN_OR_RETURN(sc.tags, Strings(c, "tags", where));
    if (auto it = c.find("opset_imports"); it != c.end()) {
      if (!it->is_object()) return Error(where + ".opset_imports", "must map domain to version");
      for (const auto& [domain, version] : it->items()) {
        if (!version.is_number_integer()) {
          return Error(where + ".opset_imports." + domain, "must be an integer");
        }
        sc.opset_imports[NormalizeDomain(domain)] = version.get<int64_t>();
      }
    }
    if (auto it = c.find("tolerance"); it != c.end()) {
      ONNXGATE_ASSIGN_OR_RETURN(sc.tolerance, Tolerance(*it, where + ".tolerance"));
      if (auto outs = it->find("outputs"); outs != it->end()) {
        if (!outs->is_object()) return Error(where + ".tolerance.outputs", "must be an object");
        for (const auto& [name, t] : outs->items()) {
          ONNXGATE_ASSIGN_OR_RETURN(sc.output_tolerance[name],
                                    Tolerance(t, where + ".tolerance.outputs." + name));
        }
      }
    }
    return sc;
  }

 private:
  std::string path_;
};

}  // namespace

StatusOr<Suite> LoadSuiteFile(const std::string& suite_json_path) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string text,
                            ReadRegularFile(suite_json_path, kMaxJsonFileBytes, "suite file"));
  ONNXGATE_RETURN_IF_ERROR(
      CheckNestingDepth(text, NestingSyntax::kJson, kMaxJsonNesting, suite_json_path));
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  Parser p(suite_json_path);
  if (root.is_discarded()) return p.Error("file", "not valid JSON");
  if (!root.is_object()) return p.Error("file", "must hold a JSON object");
  Suite s;
  s.dir = fs::path(suite_json_path).parent_path().string();
  ONNXGATE_ASSIGN_OR_RETURN(s.name, p.String(root, "name", "suite", true));
  ONNXGATE_ASSIGN_OR_RETURN(s.description, p.String(root, "description", "suite", false));
  ONNXGATE_ASSIGN_OR_RETURN(s.source, p.String(root, "source", "suite", false));
  ONNXGATE_ASSIGN_OR_RETURN(s.license, p.String(root, "license", "suite", false));
  ONNXGATE_ASSIGN_OR_RETURN(s.golden_producer, p.String(root, "golden_producer", "suite", false));
  if (auto it = root.find("default_tolerance"); it != root.end()) {
    ONNXGATE_ASSIGN_OR_RETURN(s.default_tolerance, p.Tolerance(*it, "default_tolerance"));
  }
  auto cases = root.find("cases");
  if (cases == root.end() || !cases->is_array())
    return p.Error("suite", "'cases' must be an array");
  // Resolved once per suite, not per case.
  const fs::path suite_dir = fs::weakly_canonical(s.dir);
  const fs::path golden_dir = fs::weakly_canonical(fs::path(s.dir) / ".." / ".." / "golden");
  for (size_t i = 0; i < cases->size(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(SuiteCase c, p.Case((*cases)[i], s.dir, suite_dir, golden_dir, i));
    s.cases.push_back(std::move(c));
  }
  return s;
}

StatusOr<Suite> LoadSuite(const std::string& suites_dir, const std::string& name) {
  fs::path path = fs::path(suites_dir) / name / "suite.json";
  if (!fs::exists(path)) {
    std::string known;
    for (const auto& s : ListSuites(suites_dir)) known += (known.empty() ? "" : ", ") + s;
    return NotFound("no suite '" + name + "': " + path.string() +
                    " does not exist (suites: " + (known.empty() ? "none" : known) + ")");
  }
  return LoadSuiteFile(path.string());
}

std::vector<std::string> ListSuites(const std::string& suites_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(suites_dir, ec)) {
    if (entry.is_directory() && fs::exists(entry.path() / "suite.json")) {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace onnxgate
