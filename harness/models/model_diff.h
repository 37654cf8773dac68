// `onnxgate diff`: one model run on two configurations (runtimes, EPs, optimization levels,
// thread counts) on the same inputs, every output compared with the comparison record; with
// `layerwise`, every intermediate value too (exposed as outputs of a rewritten copy), naming the
// first node whose output diverges beyond tolerance: the answer to "which op changed".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/compare.h"
#include "harness/models/model_inputs.h"
#include "harness/models/model_worker.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

// One configuration: a runtime, what to call it in reports, and how to load the model on it.
struct DiffSide {
  const RuntimeUnderTest* runtime = nullptr;
  std::string label;
  LoadOptions load;
};

struct DiffOptions {
  std::string model_path;
  std::vector<std::string> input_files;  // .pb files or one .npz; none: generated from `seed`
  uint32_t seed = 1;
  DimSizes dims;
  bool layerwise = false;
  Tolerance tolerance;
  // Each side's load and run happens in a worker under these limits (model_worker.h).
  ModelWorkerOptions worker;
};

struct ValueDiff {
  std::string value;
  std::string node;            // the node computing it (intermediates)
  std::string op_type;         // (intermediates)
  ValueComparison comparison;  // the candidate's value against the reference's
};

struct DiffRecord {
  std::string model_path;
  std::string candidate;
  std::string reference;
  Tolerance tolerance;
  std::vector<ValueDiff> outputs;
  // Layerwise: every intermediate value both sides return, in node order; the values one side
  // did not return are listed in not_compared.
  std::vector<ValueDiff> intermediates;
  std::vector<std::string> not_compared;
  std::optional<size_t> first_divergence;  // index into intermediates
  bool passed() const;
};

// Errors name the model and the side for a model that does not read or load, inputs that do not
// fit, and a run that fails, crashes or runs out of time or memory in its worker.
StatusOr<DiffRecord> DiffModel(const DiffSide& candidate, const DiffSide& reference,
                               const DiffOptions& options);

std::string RenderDiffText(const DiffRecord& diff);
std::string RenderDiffJson(const DiffRecord& diff);

}  // namespace onnxgate
