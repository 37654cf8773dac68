// Imports a tree of ONNX backend test folders (test_*/model.onnx + test_data_set_<i>/*.pb) as an
// onnxgate suite: models under suites/<suite>/models/, goldens under golden/data/<suite>/, and
// suites/<suite>/suite.json listing the cases.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

struct ImportOptions {
  std::string source_dir;  // holds the case folders (test_abs/, test_add/, ...)
  std::string suite_name;  // letters, digits, '_', '-', '.'
  std::string repo_root;   // where suites/ and golden/data/ live
  // suite.json "description", "source" and "license": an empty one keeps the existing suite.json's
  // value on a re-import.
  std::string description;
  // Who computed the expected outputs, with version: each golden's producer and suite.json's
  // golden_producer, e.g. "onnx 1.12.0 backend test data generator".
  std::string producer;
  std::string source;  // provenance: suite.json "source" and each golden's source attribute
  std::string license;
  // The `created` time written into every golden ("2026-11-21T03:00:00Z"); empty means now.
  // A fixed value makes re-imports byte-identical.
  std::string created;
  // suite.json "default_tolerance"; unset keeps the existing suite.json's value, else ONNX's
  // backend test runner defaults (rtol 1e-3, atol 1e-7).
  std::optional<double> default_rtol;
  std::optional<double> default_atol;
  std::string case_prefix = "test_";  // only folders named like this are cases
};

struct SkippedCase {
  std::string name;
  std::string reason;
};

struct ImportReport {
  std::vector<std::string> imported;  // case names, sorted
  std::vector<SkippedCase> skipped;   // bad case folders, sorted by name
  // Cases of the existing suite.json that this import did not write (hand-added, skipped this time,
  // or gone from the source folder): their entries are carried over unchanged, sorted by name.
  std::vector<std::string> kept;
  int64_t data_sets = 0;   // test data sets written, over all imported cases
  std::string suite_json;  // path of the suite.json written
};

// Imports every case folder below options.source_dir, in sorted order. A bad case folder (no
// model, a file that does not parse, data the format cannot hold) is skipped and reported, not
// fatal; errors writing the outputs and bad options are. Existing files of the same cases are
// replaced; files of cases no longer imported are left alone.
//
// A re-import merges into an existing suite.json instead of replacing what users added to it: in
// each case entry the importer rewrites only the keys it produces (name, model, golden, op_types,
// opset_imports, and its own tags "expanded", "sequence", "optional"); every other key (tolerance,
// description, user tags, anything else) is kept, and so are suite-level keys the importer does not
// own and entries of cases this import did not write (see ImportReport::kept). An existing
// suite.json that is not a JSON object with a "cases" array is an InvalidArgument error, and
// nothing is written, so that its edits are never lost silently.
StatusOr<ImportReport> ImportOnnxTests(const ImportOptions& options);

}  // namespace onnxgate
