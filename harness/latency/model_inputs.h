// Inputs for benchmarking a model: the types and shapes of the inputs the runtime under test
// says the loaded model takes, filled with seeded values (token ids within the range the
// model's metadata names).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/data_type.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct BenchInputSpec {
  std::string name;
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;  // symbolic or unknown dims become 1
  // [lo, hi) for integer inputs, from metadata "onnxgate.input_range.<name>"; absent: [0, 1).
  std::optional<std::pair<int64_t, int64_t>> int_range;
};

// The inputs `model` must be fed (graph inputs without an initializer). Errors name
// `model_path`: an input that is not a tensor, or a malformed input range in the metadata.
StatusOr<std::vector<BenchInputSpec>> BenchInputSpecs(const LoadedModel& model,
                                                      const std::string& model_path);

// Values for `specs`: floats uniform in [-1, 1), integers uniform in their range, bools false.
// Unimplemented for element types the bench cannot fill (strings, complex).
StatusOr<std::vector<NamedValue>> MakeBenchInputs(const std::vector<BenchInputSpec>& specs,
                                                  uint32_t seed);

}  // namespace onnxgate
