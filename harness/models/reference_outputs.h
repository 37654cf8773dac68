// `onnxgate record --reference-model`: the golden's outputs are another model's (an INT8 model's
// FP32 parent, the previous export) on the recorded model's data sets, run in the worker on the
// same runtime and load options. The reference must return the outputs the recorded model
// returns, by name, no more and no fewer, with the same shapes on every set; it is fed the inputs
// of each set as the recorded model was.
#pragma once

#include <string>
#include <vector>

#include "harness/models/model_worker.h"
#include "harness/models/value_groups.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct ReferenceRun {
  const RuntimeUnderTest* runtime = nullptr;
  LoadOptions load;
  std::string model_path;  // the reference model
  std::string label;       // the runtime and load, for messages ("builtin ref, level 0")
};

// Per set, the reference's values of the outputs `recorded` holds (each set's recorded model
// outputs, in its order), in the same order. InvalidArgument naming both models and the output
// for an output only one of them has or one the reference returns with another shape; the
// reference's load and run errors (in the worker: crashes and limits too) with its path and the
// set.
StatusOr<ValueGroups> RunReferenceModel(const ReferenceRun& reference,
                                        const std::string& recorded_model, const ValueGroups& feeds,
                                        const ValueGroups& recorded, ModelWorker& worker);

}  // namespace onnxgate
