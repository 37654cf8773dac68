// Suite definitions: suites/<suite>/suite.json (name, provenance, default tolerance, and cases
// with model path, golden path, op types, opset imports, tags, optional tolerances).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/tolerances.h"
#include "harness/metrics.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct SuiteCase {
  std::string name;
  std::string model_path;   // resolved against the suite folder
  std::string golden_path;  // resolved against the suite folder
  std::vector<std::string> op_types;
  std::map<std::string, int64_t> opset_imports;  // domain ("" for ai.onnx) -> version
  std::vector<std::string> tags;
  ToleranceOverride tolerance;                                // the whole case
  std::map<std::string, ToleranceOverride> output_tolerance;  // per output name
  // "metrics": {"cosine": 0.999, "top1": 0.99}: each output a threshold applies to is judged by
  // them instead of rtol/atol (harness/metrics.h).
  MetricThresholds metrics;

  // The default domain's opset, 0 when the model imports none.
  int64_t default_opset() const;
};

struct Suite {
  std::string name;
  std::string dir;  // the folder holding suite.json
  std::string description;
  std::string source;
  std::string license;
  std::string golden_producer;
  ToleranceOverride default_tolerance;
  std::vector<SuiteCase> cases;
};

// Reads `<suites_dir>/<name>/suite.json`. Errors name the file and the key that is wrong.
StatusOr<Suite> LoadSuite(const std::string& suites_dir, const std::string& name);
StatusOr<Suite> LoadSuiteFile(const std::string& suite_json_path);
// The names of the folders under `suites_dir` that hold a suite.json, sorted.
std::vector<std::string> ListSuites(const std::string& suites_dir);

}  // namespace onnxgate
