// Imports a tree of ONNX backend test folders (test_*/model.onnx + test_data_set_<i>/*.pb) as an
// onnxgate suite: models under suites/<suite>/models/, goldens under golden/data/<suite>/, and
// suites/<suite>/suite.json listing the cases.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

struct ImportOptions {
  std::string source_dir;   // holds the case folders (test_abs/, test_add/, ...)
  std::string suite_name;   // letters, digits, '_', '-', '.'
  std::string repo_root;    // where suites/ and golden/data/ live
  std::string description;  // suite.json "description"
  // Who computed the expected outputs, with version: each golden's producer and suite.json's
  // golden_producer, e.g. "onnx 1.12.0 backend test data generator".
  std::string producer;
  std::string source;   // provenance: suite.json "source" and each golden's source attribute
  std::string license;  // suite.json "license"
  // The `created` time written into every golden ("2026-11-21T03:00:00Z"); empty means now.
  // A fixed value makes re-imports byte-identical.
  std::string created;
  double default_rtol = 1e-3;  // ONNX's backend test runner defaults
  double default_atol = 1e-7;
  std::string case_prefix = "test_";  // only folders named like this are cases
};

struct SkippedCase {
  std::string name;
  std::string reason;
};

struct ImportReport {
  std::vector<std::string> imported;  // case names, sorted
  std::vector<SkippedCase> skipped;   // bad case folders, sorted by name
  int64_t data_sets = 0;              // test data sets written, over all imported cases
  std::string suite_json;             // path of the suite.json written
};

// Imports every case folder below options.source_dir, in sorted order. A bad case folder (no
// model, a file that does not parse, data the format cannot hold) is skipped and reported, not
// fatal; errors writing the outputs and bad options are. Existing files of the same cases are
// replaced; files of cases no longer imported are left alone.
StatusOr<ImportReport> ImportOnnxTests(const ImportOptions& options);

}  // namespace onnxgate
