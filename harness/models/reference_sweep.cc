// `onnxgate sweep --against` (see reference_sweep.h).
#include "harness/models/reference_sweep.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

#include "harness/worker.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

// OK when some graph input of the model at `path` has a dimension named `dim`.
Status CheckModelHasDimension(const std::string& path, const std::string& dim) {
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile file, ModelFile::Read(path));
  for (const auto& input : file.proto().graph().input()) {
    if (!input.type().has_tensor_type()) continue;
    for (const auto& d : input.type().tensor_type().shape().dim()) {
      if (d.has_dim_param() && d.dim_param() == dim) return OkStatus();
    }
  }
  return InvalidArgument(path + ": no input has a dimension named '" + dim + "'");
}

// OK when the runtime of `side` offers every provider its load asks for (or lists none): an EP
// it lacks is bad input, not a failed size.
Status CheckProviders(const DiffSide& side) {
  const std::vector<std::string> offered = side.runtime->providers();
  if (offered.empty()) return OkStatus();  // the runtime does not say; its load will
  for (const std::string& p : side.load.providers) {
    if (std::find(offered.begin(), offered.end(), p) != offered.end()) continue;
    std::string names;
    for (const std::string& o : offered) names += (names.empty() ? "" : ", ") + o;
    return InvalidArgument(side.label + ": unknown execution provider '" + p +
                           "'; this runtime offers: " + names);
  }
  return OkStatus();
}

}  // namespace

StatusOr<BatchSweepRecord> SweepAgainstReference(const DiffSide& side, const DiffSide& reference,
                                                 const BatchSweepOptions& o) {
  ONNXGATE_RETURN_IF_ERROR(CheckModelHasDimension(o.model_path, o.dim));
  ONNXGATE_RETURN_IF_ERROR(CheckProviders(side));
  ONNXGATE_RETURN_IF_ERROR(CheckProviders(reference));
  BatchSweepRecord sweep;
  sweep.model_path = o.model_path;
  sweep.label = side.label;
  sweep.reference = reference.label;
  sweep.dim = o.dim;
  sweep.sizes = o.sizes;
  sweep.tolerance = o.tolerance;
  for (int64_t size : o.sizes) {
    DiffOptions d;
    d.model_path = o.model_path;
    d.seed = o.seed;
    d.dims = o.other_dims;
    d.dims[o.dim] = size;
    d.tolerance = o.tolerance;
    d.worker = o.worker;
    StatusOr<DiffRecord> diff = DiffModel(side, reference, d);
    if (!diff.ok()) {
      if (StopRequested()) return diff.status();
      BatchRowCheck failed{size, -1, "", {}};
      failed.comparison.summary = diff.status().message();
      sweep.rows.push_back(std::move(failed));
      continue;
    }
    for (ValueDiff& v : diff->outputs) {
      sweep.rows.push_back({size, -1, v.value, std::move(v.comparison)});
    }
  }
  return sweep;
}

}  // namespace onnxgate
