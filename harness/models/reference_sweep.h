// `onnxgate sweep --against`: a model run with a dynamic dimension at several sizes on one runtime
// and EP, each size compared output by output with a reference configuration (another runtime,
// EP, optimization level or thread count) run on the same inputs at that size. The check for a
// dimension whose positions are meant to mix, a sequence or an image size, where a row-by-row
// check (batch_sweep.h) would fail every correct attention model.
#pragma once

#include "harness/models/batch_sweep.h"
#include "harness/models/model_diff.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Errors name the model for one that does not read and a dimension no input of it has, and the
// side for an EP its runtime does not offer. A size
// where either side fails to load or run, or crashes or runs out of time or memory in its worker,
// is a failed check of that size (row -1, output empty, the summary saying what happened). The
// record's checks have row -1 and name their output.
StatusOr<BatchSweepRecord> SweepAgainstReference(const DiffSide& side, const DiffSide& reference,
                                                 const BatchSweepOptions& options);

}  // namespace onnxgate
