// Golden files (format v2; v1 is still read): the inputs and expected outputs of one test case,
// as HDF5, with the hash of the model (and its external data files) they belong to and, from v2
// on, checksums of their own content. See golden/README.md for the layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "golden/golden_limits.h"
#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnxgate {

inline constexpr char kGoldenFormat[] = "onnxgate-golden";
// The newest format ReadGolden reads. Format 2 is format 1 plus checksums
// (golden/golden_checksum.h) and model_files_sha256; format 3 is format 2 plus the intermediate
// values of data sets (GoldenSet::intermediates). WriteGolden writes the oldest of 2 and 3 that
// holds the golden (GoldenFormatVersionFor), so a golden without intermediates stays readable by
// readers that know format 2 only.
inline constexpr int64_t kGoldenFormatVersion = 3;
// The oldest format ReadGolden reads: no checksums; the model hash still ties it to its model.
inline constexpr int64_t kGoldenOldestFormatVersion = 1;

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
  // Format 3, optional (`onnxgate record --layerwise`): values computed inside the model by the
  // runtime that produced the outputs, named after the ONNX value, index = position in node
  // order. A case that fails is attributed to the first node whose value departs from these.
  // No per-value tolerance.
  std::vector<GoldenValue> intermediates;
};

struct GoldenFile {
  std::string producer;      // who computed the outputs, with version
  std::string model_sha256;  // lowercase hex SHA-256 of the model file's bytes
  // CombineModelFilesSha256 (runtime/model/model_file.h) of the model file and every external data
  // file it names; empty when the writer did not know them (then a model with external data is
  // refused by the harness, as the golden cannot vouch for those files).
  std::string model_files_sha256;
  // (domain, version); the default domain is "" (written "ai.onnx" in the file).
  std::vector<std::pair<std::string, int64_t>> opset_imports;
  std::string created;  // UTC, "2026-11-21T03:00:00Z"; WriteGolden fills an empty one with now
  std::string source;   // provenance, free text; empty when absent
  std::vector<GoldenSet> sets;
  // Format 3, how `record --layerwise` thinned the intermediate values (root attributes written
  // only when not the default; golden/golden_layerwise.h): the values of every
  // `layerwise_every`th node in node order and of the last, and with layerwise_precision
  // "float16" the float32 ones stored as float16 ("": as the runtime computed them).
  int64_t layerwise_every = 1;
  std::string layerwise_precision;
  // The format_version the file had (ReadGolden); WriteGolden writes GoldenFormatVersionFor.
  int64_t format_version = kGoldenFormatVersion;
};

// 3 when some data set has intermediate values or a layerwise attribute is not the default,
// else 2.
int64_t GoldenFormatVersionFor(const GoldenFile& golden);

// Reads and validates a golden. DataLoss for a file that is not HDF5, truncated or inconsistent
// (onnx_dtype against HDF5 type, shape attribute against dataspace), for data kept outside the
// file (an external link, external raw storage, a virtual dataset: golden/hdf5_containment.h), a
// declared size past golden/golden_limits.h's limits, and for a checksum that does not match
// ("golden corrupted: ..."); InvalidArgument for a wrong format, a missing attribute, an unknown
// onnx_dtype, or a path that is a folder, FIFO or device (refused without blocking); Unimplemented
// for an unknown format_version or an ONNX element type this reader does not support
// (FLOAT6E2M3, FLOAT6E3M2); NotFound for a missing file. Messages name the file and the object
// path. Inputs and outputs come sorted by index. Format 2 must carry its checksums; format 1 has
// none, but any it carries are checked.
StatusOr<GoldenFile> ReadGolden(const std::string& path);
// ReadGolden with other limits on what the tensors declare (tests).
StatusOr<GoldenFile> ReadGolden(const std::string& path, const GoldenReadLimits& limits);

// Writes `golden` to `path` (format GoldenFormatVersionFor(golden), with its checksums) through a
// temporary file and a rename, so that a failed or killed write leaves no file (or the previous
// one) behind. InvalidArgument for content the format cannot hold.
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
