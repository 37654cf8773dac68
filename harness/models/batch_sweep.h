// `onnxgate sweep`: a model run with a dynamic dimension at several sizes (`--dim batch=1,4,16`)
// on one runtime and EP. Over the batch dimension each row of every batched output is checked
// against a run of that row alone (the dimension at 1) on the same runtime: the breakage at other
// batch sizes that models meet in production (a kernel that mixes rows, a reshape that bakes in
// the batch). Any other dimension (a sequence, an image size) mixes positions by design, so there
// each size is compared with a reference run at that size instead (reference_sweep.h).
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
  // The configuration each size was compared with (reference_sweep.h); empty: each row against
  // the run of that row alone, and `rows` hold row checks.
  std::string reference;
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
// The dimension names taken for the batch when no --batch-dim names it, compared without case.
extern const char* const kBatchDimNames[3];  // "batch", "batch_size", "N"

// Whether `dim` is the batch: the one `batch_dim` names, or when that is empty one of
// kBatchDimNames. Only over the batch is each row its own computation.
bool IsBatchDimension(const std::string& dim, const std::string& batch_dim);

StatusOr<BatchSweepRecord> SweepBatch(const DiffSide& side, const BatchSweepOptions& options);

std::string RenderBatchSweepText(const BatchSweepRecord& sweep);
std::string RenderBatchSweepJson(const BatchSweepRecord& sweep);

// Row `index` of `t` along `axis`, keeping the axis with size 1. InvalidArgument for an axis or
// index out of range or a packed sub-byte element type.
StatusOr<Tensor> SliceRow(const Tensor& t, size_t axis, int64_t index);

}  // namespace onnxgate
