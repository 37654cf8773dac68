// suite.json parsing with errors that name the file and the key.
#include "harness/suite.h"

#include <algorithm>
#include <filesystem>

#include "runtime/base/json_reader.h"
#include "runtime/onnx/domain.h"

namespace onnxgate {

namespace fs = std::filesystem;

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

// {"rtol": x, "atol": y} (an "outputs" table beside them is read by the caller).
StatusOr<ToleranceOverride> ReadTolerance(const JsonValue& j) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject o, j.Object());
  ToleranceOverride t;
  ONNXGATE_RETURN_IF_ERROR(o.Read("rtol", &t.rtol));
  ONNXGATE_RETURN_IF_ERROR(o.Read("atol", &t.atol));
  ONNXGATE_RETURN_IF_ERROR(t.Validate(j.source() + ": " + j.path()));
  return t;
}

// {"cosine": 0.999, "top1": 0.99}: thresholds in range, errors naming the file, case and metric.
Status ReadMetrics(const JsonObject& c, MetricThresholds* metrics) {
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> object, c.OptionalObject("metrics"));
  if (!object) return OkStatus();
  return object->ForEachMember([&](const std::string& name, const JsonValue& v) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(double limit, v.Number());
    ONNXGATE_ASSIGN_OR_RETURN(MetricThreshold t,
                              MakeMetricThreshold(name, limit, v.source() + ": " + v.path()));
    metrics->items.push_back(std::move(t));
    return OkStatus();
  });
}

// The case's model and golden, which must stay inside `suite_dir` (the model) or `golden_dir` or
// `suite_dir` (the golden); both folders are canonical.
Status ReadCaseFiles(const JsonObject& c, const std::string& dir, const fs::path& suite_dir,
                     const fs::path& golden_dir, SuiteCase* sc) {
  std::string model, golden;
  ONNXGATE_RETURN_IF_ERROR(c.Require("model", &model));
  ONNXGATE_RETURN_IF_ERROR(c.Require("golden", &golden));
  sc->model_path = (fs::path(dir) / model).lexically_normal().string();
  sc->golden_path = (fs::path(dir) / golden).lexically_normal().string();
  // A suite names files by relative path; a suite from anywhere must not make the gate read
  // outside its own folder (the model) or the repository's golden/ (the golden).
  if (!Inside(sc->model_path, suite_dir)) {
    return c.FieldError("model",
                        "'" + model + "' leads outside the suite folder " + suite_dir.string());
  }
  if (!Inside(sc->golden_path, golden_dir) && !Inside(sc->golden_path, suite_dir)) {
    return c.FieldError("golden", "'" + golden + "' leads outside both the suite folder and " +
                                      golden_dir.string());
  }
  return OkStatus();
}

StatusOr<SuiteCase> ReadCase(const JsonObject& c, const std::string& dir, const fs::path& suite_dir,
                             const fs::path& golden_dir) {
  SuiteCase sc;
  ONNXGATE_RETURN_IF_ERROR(c.Require("name", &sc.name));
  ONNXGATE_RETURN_IF_ERROR(ReadCaseFiles(c, dir, suite_dir, golden_dir, &sc));
  ONNXGATE_RETURN_IF_ERROR(c.Read("op_types", &sc.op_types));
  ONNXGATE_RETURN_IF_ERROR(c.Read("tags", &sc.tags));
  std::map<std::string, int64_t> opsets;
  ONNXGATE_RETURN_IF_ERROR(c.Read("opset_imports", &opsets));
  for (const auto& [domain, version] : opsets) {
    sc.opset_imports[NormalizeDomain(domain)] = version;
  }
  ONNXGATE_RETURN_IF_ERROR(ReadMetrics(c, &sc.metrics));
  std::optional<JsonValue> tolerance = c.Find("tolerance");
  if (!tolerance) return sc;
  ONNXGATE_ASSIGN_OR_RETURN(sc.tolerance, ReadTolerance(*tolerance));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<JsonObject> outputs,
                            tolerance->Object()->OptionalObject("outputs"));
  if (outputs) {
    ONNXGATE_RETURN_IF_ERROR(
        outputs->ForEachMember([&](const std::string& name, const JsonValue& t) -> Status {
          ONNXGATE_ASSIGN_OR_RETURN(sc.output_tolerance[name], ReadTolerance(t));
          return OkStatus();
        }));
  }
  return sc;
}
#include "runtime/onnx/domain.h"

}  // namespace

StatusOr<Suite> LoadSuiteFile(const std::string& suite_json_path) {
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc,
                            JsonDocument::ReadFile(suite_json_path, "suite file"));
  ONNXGATE_ASSIGN_OR_RETURN(JsonObject root, doc.RootObject());
  Suite s;
  s.dir = fs::path(suite_json_path).parent_path().string();
  ONNXGATE_RETURN_IF_ERROR(root.Require("name", &s.name));
  ONNXGATE_RETURN_IF_ERROR(root.Read("description", &s.description));
  ONNXGATE_RETURN_IF_ERROR(root.Read("source", &s.source));
  ONNXGATE_RETURN_IF_ERROR(root.Read("license", &s.license));
  ONNXGATE_RETURN_IF_ERROR(root.Read("golden_producer", &s.golden_producer));
  if (std::optional<JsonValue> t = root.Find("default_tolerance")) {
    ONNXGATE_ASSIGN_OR_RETURN(s.default_tolerance, ReadTolerance(*t));
  }
  ONNXGATE_ASSIGN_OR_RETURN(JsonArray cases, root.RequiredArray("cases"));
  // Resolved once per suite, not per case.
  const fs::path suite_dir = fs::weakly_canonical(s.dir);
  const fs::path golden_dir = fs::weakly_canonical(fs::path(s.dir) / ".." / ".." / "golden");
  ONNXGATE_RETURN_IF_ERROR(cases.ForEachObject([&](const JsonObject& c) -> Status {
    ONNXGATE_ASSIGN_OR_RETURN(SuiteCase sc, ReadCase(c, s.dir, suite_dir, golden_dir));
    s.cases.push_back(std::move(sc));
    return OkStatus();
  }));
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
