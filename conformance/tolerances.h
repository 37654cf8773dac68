// Tolerances for output comparison, resolved from layers: ONNX defaults, tolerances.json (per
// dtype and op), suite.json (per case and output), and the command line.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The comparison rule: an element passes where |actual - expected| <= atol + rtol * |expected|.
struct Tolerance {
  // The ONNX backend test runner's defaults.
  static constexpr double kDefaultRtol = 1e-3;
  static constexpr double kDefaultAtol = 1e-7;

  double rtol = kDefaultRtol;
  double atol = kDefaultAtol;

  // "rtol=0.001 atol=1e-07".
  std::string ToString() const;
  bool operator==(const Tolerance& o) const { return rtol == o.rtol && atol == o.atol; }
  bool operator!=(const Tolerance& o) const { return !(*this == o); }
};

// One layer: it may set rtol, atol, both or neither (an absent layer is an empty override).
// The sane bounds of a tolerance from any layer (a file, a golden, the command line). An rtol
// above 1 accepts a value of the opposite sign; an atol of 1e300 makes anything pass.
inline constexpr double kMaxRtol = 1.0;
inline constexpr double kMaxAtol = 1000.0;

struct ToleranceOverride {
  std::optional<double> rtol;
  std::optional<double> atol;

  bool empty() const { return !rtol && !atol; }
  // InvalidArgument naming `where` when a value is negative, not finite, or above kMaxRtol or
  // kMaxAtol.
  Status Validate(const std::string& where) const;
};

// The resolved tolerance and, for reports and reproducers, which layer set each value
// ("ONNX default", "conformance/tolerances.json: dtypes.float16", "case", "output", "command
// line").
struct ResolvedTolerance {
  Tolerance tolerance;
  std::string rtol_source;
  std::string atol_source;
};

// The per-dtype and per-op layer read from tolerances.json, plus the fixed ONNX defaults.
//
// Precedence, lowest first; each layer sets rtol and atol separately, only where it has them:
//   1. ONNX defaults (rtol 1e-3, atol 1e-7)
//   2. file: dtypes.<dtype>                 replaces layer 1
//   3. file: ops.<op>                       may only loosen layers 1-2 (the larger value wins)
//      file: ops.<op>.dtypes.<dtype>        replaces everything above, for that op
//   4. case tolerance   (suite.json)        replaces everything above
//   5. output tolerance (suite.json/golden) replaces everything above
//   6. command line     (--rtol / --atol)   replaces everything above
// Entries in the file state what a dtype or an op needs, so a general op entry written with float
// in mind cannot make bfloat16 stricter than its precision allows; the op-and-dtype entry is the
// one exact statement and may tighten. A case that covers several op types gets the loosest value
// any of its ops needs (ops without an entry count with layers 1-2): a graph is as inexact as
// its least exact op. Layers 4-6 are explicit choices for one case and override the file.
class ToleranceLayers {
 public:
  // Only the ONNX defaults.
  ToleranceLayers() = default;

  // Reads a tolerances file. Errors name the file and the offending key ("ops.Softmax.rtol").
  static StatusOr<ToleranceLayers> LoadFile(const std::string& path);
  // Parses the JSON text of a tolerances file; `source` names it in errors.
  static StatusOr<ToleranceLayers> FromJsonText(const std::string& text, const std::string& source);

  Tolerance Resolve(const std::vector<std::string>& op_types, DataType dtype,
                    const ToleranceOverride& case_tolerance = {},
                    const ToleranceOverride& output_tolerance = {},
                    const ToleranceOverride& cli_override = {}) const;
  ResolvedTolerance ResolveWithSources(const std::vector<std::string>& op_types, DataType dtype,
                                       const ToleranceOverride& case_tolerance = {},
                                       const ToleranceOverride& output_tolerance = {},
                                       const ToleranceOverride& cli_override = {}) const;

  // The file's entries, for listing them (e.g. in a report's appendix).
  struct Entry {
    ToleranceOverride values;
    std::string why;
  };
  struct OpEntry {
    Entry op;                                 // applies to every dtype
    std::map<DataType, Entry> dtype_entries;  // this op at one dtype
  };
  const std::map<DataType, Entry>& dtype_entries() const { return dtypes_; }
  const std::map<std::string, OpEntry>& op_entries() const { return ops_; }
  const std::string& source() const { return source_; }

 private:
  std::string source_;  // the file name, for ResolvedTolerance's sources
  std::map<DataType, Entry> dtypes_;
  std::map<std::string, OpEntry> ops_;
};

}  // namespace onnxgate
