// Generated inputs for a model: the types and shapes of the inputs the runtime under test says
// the loaded model takes (symbolic dimensions sized by name, others 1), filled with seeded values
// (token ids within the range the model's metadata names). The bench and the commands that run
// users' models (record, diff) feed models with these.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/data_type.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Sizes for symbolic dimensions, by the name the model gives them ("batch" -> 4).
using DimSizes = std::map<std::string, int64_t>;

// Ranges [lo, hi) of generated integer inputs, by input name ("input_ids" -> [0, 30522)).
using InputRanges = std::map<std::string, std::pair<int64_t, int64_t>>;

// The model metadata key that gives an integer input's range: "onnxgate.input_range.<input>",
// its value "<lo> <hi>" (whole numbers, lo < hi; generated values are in [lo, hi)).
std::string InputRangeMetadataKey(const std::string& input);

struct InputSpec {
  std::string name;
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;  // symbolic dims sized from DimSizes, else 1; unknown dims 1
  // [lo, hi) for integer inputs, from `ranges` else metadata InputRangeMetadataKey(name);
  // absent: [0, 1), every value 0.
  std::optional<std::pair<int64_t, int64_t>> int_range;
};

// The inputs `model` must be fed (graph inputs without an initializer), with symbolic dimensions
// sized from `dims` and integer ranges from `ranges` (which take precedence over the metadata).
// Errors name `model_path`: an input that is not a tensor, a malformed input range in the
// metadata, a range in `ranges` for an input the model does not have or that is not an integer.
StatusOr<std::vector<InputSpec>> ModelInputSpecs(const LoadedModel& model,
                                                 const std::string& model_path,
                                                 const DimSizes& dims = {},
                                                 const InputRanges& ranges = {});

// The most elements one generated input may have (1 GiB of float32).
inline constexpr int64_t kMaxGeneratedElements = int64_t{1} << 28;

// Values for `specs`: floats uniform in [-1, 1), integers uniform in their range, bools false.
// Unimplemented for element types that cannot be generated (strings, complex); InvalidArgument
// for a shape of more than kMaxGeneratedElements elements (a --dim too large).
StatusOr<std::vector<NamedValue>> MakeInputs(const std::vector<InputSpec>& specs, uint32_t seed);

}  // namespace onnxgate
