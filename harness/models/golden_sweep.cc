// `onnxgate sweep --golden` (see golden_sweep.h).
#include "harness/models/golden_sweep.h"

#include <algorithm>
#include <map>

#include "golden/golden_file.h"
#include "harness/models/expected_outputs.h"
#include "harness/models/load_on_runtime.h"
#include "harness/models/model_feeds.h"
#include "harness/models/model_worker.h"
#include "harness/worker.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

// The size of `dim` in a data set: the extent, in the set's value of the first declared input
// that has the dimension, of that input's axis of that name; -1 when the set lacks such an input.
int64_t SizeInSet(const GoldenSet& set, const DeclaredIo& declared, const std::string& dim) {
  for (const ValueInfo& input : declared.inputs) {
    for (size_t axis = 0; axis < input.dims.size(); ++axis) {
      if (input.dims[axis].symbol != dim) continue;
      for (const GoldenValue& v : set.inputs) {
        if (v.name != input.name || !v.value.is_tensor()) continue;
        const std::vector<int64_t>& dims = v.value.tensor().shape().dims();
        if (axis < dims.size()) return dims[axis];
      }
    }
  }
  return -1;
}

bool HasDimension(const DeclaredIo& declared, const std::string& dim) {
  for (const ValueInfo& input : declared.inputs) {
    for (const auto& d : input.dims) {
      if (d.symbol == dim) return true;
    }
  }
  return false;
}

// Data set indexes by the size of `dim`; InvalidArgument naming the golden when a swept size has
// none.
StatusOr<std::map<int64_t, std::vector<size_t>>> SetsBySize(const GoldenFile& golden,
                                                            const DeclaredIo& declared,
                                                            const std::string& golden_path,
                                                            const BatchSweepOptions& o) {
  std::map<int64_t, std::vector<size_t>> by_size;
  for (size_t s = 0; s < golden.sets.size(); ++s) {
    by_size[SizeInSet(golden.sets[s], declared, o.dim)].push_back(s);
  }
  for (int64_t size : o.sizes) {
    if (by_size.count(size)) continue;
    std::string has;
    for (const auto& [recorded, sets] : by_size) {
      if (recorded >= 0) has += (has.empty() ? "" : ", ") + o.dim + "=" + std::to_string(recorded);
    }
    return InvalidArgument(golden_path + ": no data set at " + o.dim + "=" + std::to_string(size) +
                           " (it has " + (has.empty() ? "none with that dimension" : has) +
                           "); record one with --dim " + o.dim + "=...");
  }
  return by_size;
}

// One data set in a worker: the model loaded on `side` and run on the set's inputs; the outputs.
StatusOr<std::vector<NamedValue>> RunSet(ModelWorker& worker, const DiffSide& side,
                                         const BatchSweepOptions& o, const GoldenSet& set,
                                         const std::string& what) {
  StatusOr<ValueGroups> groups = worker.RunValues(what, [&]() -> StatusOr<ValueGroups> {
    SetWorkerBreadcrumb("loading " + o.model_path);
    ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<LoadedModel> model,
                              LoadOnRuntime(*side.runtime, o.model_path, side.load));
    std::vector<NamedValue> feeds;
    for (const GoldenValue& v : set.inputs) feeds.push_back({v.name, v.value});
    SetWorkerBreadcrumb("running " + o.model_path + " on a data set of the golden");
    ONNXGATE_ASSIGN_OR_RETURN(auto outputs, RunOutputsByName(*model, feeds));
    std::vector<NamedValue> got;
    for (auto& [name, value] : outputs) got.push_back({name, std::move(value)});
    return ValueGroups{std::move(got)};
  });
  if (!groups.ok()) return groups.status();
  if (groups->size() != 1) return Internal(what + ": the worker returned no outputs");
  return std::move(groups->front());
}

}  // namespace

StatusOr<BatchSweepRecord> SweepAgainstGolden(const DiffSide& side, const std::string& golden_path,
                                              const BatchSweepOptions& o) {
  ONNXGATE_ASSIGN_OR_RETURN(ModelFile file, ModelFile::Read(o.model_path));
  const DeclaredIo declared = DeclaredIoOf(file.proto());
  if (!HasDimension(declared, o.dim)) {
    return InvalidArgument(o.model_path + ": no input has a dimension named '" + o.dim + "'");
  }
  StatusOr<GoldenFile> golden = ReadGolden(golden_path);
  if (!golden.ok()) return golden.status().WithContext(golden_path);
  const bool same_files = golden->model_files_sha256.empty()
                              ? golden->model_sha256 == file.sha256()
                              : golden->model_files_sha256 == file.files_sha256();
  if (!same_files) {
    return InvalidArgument(golden_path + ": recorded for other model files than " + o.model_path +
                           " (the SHA-256 differs)");
  }
  ONNXGATE_ASSIGN_OR_RETURN(auto by_size, SetsBySize(*golden, declared, golden_path, o));

  BatchSweepRecord sweep;
  sweep.model_path = o.model_path;
  sweep.label = side.label;
  sweep.reference = "the golden " + golden_path + " (" + golden->producer + ")";
  sweep.dim = o.dim;
  sweep.sizes = o.sizes;
  sweep.tolerance = o.tolerance;
  ModelWorker worker(o.worker, {side.runtime});
  for (int64_t size : o.sizes) {
    for (size_t s : by_size.at(size)) {
      const std::string what = o.model_path + ": the run of data set " + std::to_string(s) + " (" +
                               o.dim + "=" + std::to_string(size) + ") on " + side.label;
      StatusOr<std::vector<NamedValue>> got = RunSet(worker, side, o, golden->sets[s], what);
      if (!got.ok()) {
        if (worker.last_step_died() && StopRequested()) return got.status();
        BatchRowCheck failed{size, -1, "", {}};
        failed.comparison.summary = got.status().message();
        sweep.rows.push_back(std::move(failed));
        continue;
      }
      for (const GoldenValue& want : golden->sets[s].outputs) {
        BatchRowCheck check{size, -1, want.name, {}};
        auto it = std::find_if(got->begin(), got->end(),
                               [&](const NamedValue& v) { return v.name == want.name; });
        if (it == got->end()) {
          check.comparison.summary = "the run returned no output '" + want.name + "'";
        } else {
          check.comparison = CompareValues(it->value, want.value, o.tolerance);
        }
        sweep.rows.push_back(std::move(check));
      }
    }
  }
  return sweep;
}

}  // namespace onnxgate
