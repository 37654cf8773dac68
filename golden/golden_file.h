// Golden files (format v1): the inputs and expected outputs of one test case, as HDF5, with the
// hash of the model they belong to. See golden/README.md for the layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

inline constexpr char kGoldenFormat[] = "onnxgate-golden";
inline constexpr int64_t kGoldenFormatVersion = 1;

// One input or expected output.
struct GoldenValue {
  std::string name;   // the ONNX value name
  int64_t index = 0;  // position among the model's inputs / outputs
  Value value;
  // Per-output tolerance overrides; outputs only.
  std::optional<double> rtol;
  std::optional<double> atol;
};

// One test data set: inputs and the outputs expected for them.
struct GoldenSet {
  std::vector<GoldenValue> inputs;
  std::vector<GoldenValue> outputs;
};

struct GoldenFile {
  std::string producer;      // who computed the outputs, with version
  std::string model_sha256;  // lowercase hex SHA-256 of the model file's bytes
  // (domain, version); the default domain is "" (written "ai.onnx" in the file).
  std::vector<std::pair<std::string, int64_t>> opset_imports;
  std::string created;  // UTC, "2026-11-21T03:00:00Z"; WriteGolden fills an empty one with now
  std::string source;   // provenance, free text; empty when absent
  std::vector<GoldenSet> sets;
};

// Reads and validates a golden. DataLoss for a file that is not HDF5, truncated or inconsistent
// (onnx_dtype against HDF5 type, shape attribute against dataspace); InvalidArgument for a wrong
// format, a missing attribute or an unknown onnx_dtype; Unimplemented for an unknown
// format_version or an ONNX element type this reader does not support (FLOAT6E2M3, FLOAT6E3M2);
// NotFound for a missing file. Messages name the file and the object path. Inputs and outputs
// come sorted by index.
StatusOr<GoldenFile> ReadGolden(const std::string& path);

// Writes `golden` to `path` through a temporary file and a rename, so that a failed or killed write
// leaves no file (or the previous one) behind. InvalidArgument for content the format cannot hold.
Status WriteGolden(const std::string& path, const GoldenFile& golden);

// The HDF5 link name of an ONNX value name: '%' -> "%25", '/' -> "%2F", a leading '.' -> "%2E".
std::string EncodeGoldenName(const std::string& name);
// The inverse of EncodeGoldenName; InvalidArgument for a malformed escape.
StatusOr<std::string> DecodeGoldenName(const std::string& link_name);

// "ai.onnx:13,ai.onnx.ml:3" <-> [("", 13), ("ai.onnx.ml", 3)].
std::string FormatOpsetImports(const std::vector<std::pair<std::string, int64_t>>& imports);
StatusOr<std::vector<std::pair<std::string, int64_t>>> ParseOpsetImports(const std::string& text);

// Initialises the HDF5 library and silences its error printing. Reading and writing do this
// themselves; calling it once up front lets forked worker processes inherit the initialised state.
void InitializeGoldenIo();

// Whether a string has the form of UtcNowIso8601() (runtime/base/utc_time.h).
bool IsUtcTimestamp(const std::string& s);

}  // namespace onnxgate
