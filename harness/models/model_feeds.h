// Inputs for running a user's own model (record, diff, sweeps): read from files the user gives,
// ONNX TensorProto .pb files or one NumPy .npz, or generated from a seed; with named dynamic
// dimensions set (`--dim batch=4`). Every value is checked against what the loaded model declares
// (name, element type, rank and fixed dimensions), and each error names the file and the mismatch.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "golden/golden_file.h"
#include "harness/models/model_inputs.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct FeedSource {
  // Empty: generate every input from `seed`. Otherwise either .pb files (a TensorProto each,
  // bound by its `name`, or by position among the model's inputs when it has none) or exactly one
  // .npz whose arrays are named as the model's inputs. Every input must be given exactly once.
  std::vector<std::string> files;
  // Symbolic dimensions of generated inputs; a name the model's inputs do not use is an error.
  // Symbolic dimensions left out are 1. Given values must agree with these sizes too.
  DimSizes dims;
  uint32_t seed = 0;
};

// The feeds for `model` (loaded from `model_path`, which errors name), in the model's input
// order. InvalidArgument names the file and the mismatch: an unknown or missing input, an
// element type or shape the model does not declare, an .npz with extra or missing arrays, a
// --dim naming a dimension the model does not have. Generated values: floats uniform in [-1, 1),
// integers in the range `ranges` or the model's metadata gives (model_inputs.h; else [0, 1)),
// bools false.
StatusOr<std::vector<NamedValue>> MakeModelFeeds(const LoadedModel& model,
                                                 const std::string& model_path,
                                                 const FeedSource& source,
                                                 const InputRanges& ranges = {});

// The inputs of a golden data set, as feeds.
std::vector<NamedValue> FeedsOfSet(const GoldenSet& set);

// One run of `model` on `feeds`: its outputs by name. The run's own error as it is; Internal when
// the runtime returns another number of outputs than it declares.
StatusOr<std::map<std::string, Value>> RunOutputsByName(const LoadedModel& model,
                                                        const std::vector<NamedValue>& feeds);

// `--dim` flags ("batch=1,4,16", repeatable) as name -> sizes, in the order given. InvalidArgument
// for a malformed flag, a size below 1 or a name given twice.
StatusOr<std::map<std::string, std::vector<int64_t>>> ParseDimFlags(
    const std::vector<std::string>& flags);

// Every combination of the `--dim` sizes, the first name varying slowest; one empty map for none.
std::vector<DimSizes> DimCombinations(const std::map<std::string, std::vector<int64_t>>& dims);

// "batch=4,seq=128": the sizes by name, in name order; empty for none.
std::string DimSizesText(const DimSizes& dims);

// `--input-range` flags ("input_ids=0:30522", repeatable) as name -> [lo, hi). InvalidArgument for
// a malformed flag, lo not below hi, or a name given twice.
StatusOr<InputRanges> ParseInputRangeFlags(const std::vector<std::string>& flags);

// `--dim` flags that each give one size ("batch=4"), for commands that run one configuration.
// InvalidArgument as ParseDimFlags, and for a flag with several sizes.
StatusOr<DimSizes> ParseFixedDimFlags(const std::vector<std::string>& flags);

}  // namespace onnxgate
