// `onnxgate sweep --golden`: a model run at several sizes of a dimension on one runtime and EP,
// each size checked against the data set of a golden recorded at that size (`onnxgate record
// --dim seq=1,4,8` records one data set per size): the golden's inputs fed, its outputs the
// reference. The reference of a sweep over a sequence or an image size when no second
// configuration is at hand, or when the golden came from a framework (record --expected).
#pragma once

#include <string>

#include "harness/models/batch_sweep.h"
#include "harness/models/model_diff.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Errors name the file: a model that does not read, a dimension no input of it has, a golden that
// does not read or was recorded for other model files (its hashes differ), and a swept size no
// data set of the golden has (listing those it has). A data set whose run fails, crashes or runs
// out of time or memory in its worker is a failed check of its size (row -1, output empty). The
// record's checks have row -1 and name their output; `options.other_dims` and `seed` are unused,
// the golden's inputs being fixed.
StatusOr<BatchSweepRecord> SweepAgainstGolden(const DiffSide& side, const std::string& golden_path,
                                              const BatchSweepOptions& options);

}  // namespace onnxgate
