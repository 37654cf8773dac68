// `onnxgate check-model`: a preflight of one model against a runtime and an EP list, without
// goldens. Does the runtime accept the model's IR version and opsets; where would each node run,
// and why did the providers before it decline it; which nodes fall back from the first EP; which
// op versions no provider of the runtime claims; and, with a target opset, can ONNX's version
// converter bring the model there and does the converted model then give the original's outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/models/model_inputs.h"
#include "harness/models/model_worker.h"
#include "reports/model_check_report.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct ModelCheckOptions {
  std::string model_path;
  // Priority order; at least one. Each may be a '+'-joined list (harness/ep_target.h): the
  // lists are joined in the order given, and every provider must be one the runtime offers.
  std::vector<std::string> eps;
  FallbackPolicy fallback = FallbackPolicy::kAllow;  // forbid: a falling-back node fails
  int optimization_level = 0;
  std::optional<int> target_opset;
  // Generated inputs of the conversion's differential run.
  uint32_t seed = 1;
  DimSizes dims;
  // The load and the conversion's differential run each happen in a worker under these limits
  // (model_worker.h); a crash or hang there is a problem of the check, saying so.
  ModelWorkerOptions worker;
};

// The preflight's record; its problems say why the model fails it. An error only for input that
// cannot be checked at all (no such file, not a model), naming the file. `reference` runs the
// original model of a conversion's differential run when the runtime under test cannot load it
// (the built-in runtime's ref, say); it may be null.
StatusOr<ModelCheckRecord> CheckModel(const RuntimeUnderTest& runtime,
                                      const RuntimeUnderTest* reference,
                                      const ModelCheckOptions& options);

}  // namespace onnxgate
