// `onnxgate sweep`: a model run with a dynamic dimension at several sizes (`--dim batch=1,4,16`)
// on one runtime and EP, each row of every batched output checked against a run of that row
// alone (the dimension at 1) on the same runtime: the breakage at other batch sizes that models
// meet in production (a kernel that mixes rows, a reshape that bakes in the batch).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/compare.h"
#include "harness/models/model_diff.h"
#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate {

struct BatchSweepOptions {
  std::string model_path;
  std::string dim;             // the symbolic dimension swept
  std::vector<int64_t> sizes;  // its sizes
  DimSizes other_dims;         // other named dimensions, fixed
  uint32_t seed = 1;
  Tolerance tolerance;
  // Each size runs in a worker under these limits (model_worker.h).
  ModelWorkerOptions worker;
};

// One output row of a batched run against the run of that row alone. A run that fails is a
// failed check of its own: row -1 when the batched run fails, `output` empty when the row's run
// alone fails; the summary says why.
struct BatchRowCheck {
  int64_t size = 0;
  int64_t row = 0;
  std::string output;
  ValueComparison comparison;
};

struct BatchSweepRecord {
  std::string model_path;
  std::string label;  // the runtime and EP
  std::string dim;
  std::vector<int64_t> sizes;
  Tolerance tolerance;
  std::vector<BatchRowCheck> rows;
  // Outputs without the swept dimension (they cannot be split by row).
  std::vector<std::string> not_compared;
  bool passed() const;
};

// Errors name the model for one that does not read or load, a dimension it does not have, and
// inputs whose element type cannot be split by row (packed sub-byte types); a run that fails at
// some size, or crashes or runs out of time or memory in its worker there, is a failed row check
// of that size (row -1, the summary saying what happened).
StatusOr<BatchSweepRecord> SweepBatch(const DiffSide& side, const BatchSweepOptions& options);

std::string RenderBatchSweepText(const BatchSweepRecord& sweep);
std::string RenderBatchSweepJson(const BatchSweepRecord& sweep);

// Row `index` of `t` along `axis`, keeping the axis with size 1. InvalidArgument for an axis or
// index out of range or a packed sub-byte element type.
StatusOr<Tensor> SliceRow(const Tensor& t, size_t axis, int64_t index);

}  // namespace onnxgate
