// Runs one case of a suite on one EP of a runtime under test: reads the golden, checks that it
// belongs to the model, loads the model, runs every data set and compares every output. The
// result is a CaseRecord with the raw outcome (expectations are applied later).
#pragma once

#include <string>

#include "conformance/tolerances.h"
#include "harness/suite.h"
#include "reports/records.h"
#include "runtime/api/runtime.h"

namespace onnxgate {

struct CaseRunOptions {
  std::string ep = "ref";  // the target's label (harness/ep_target.h)
  // The target's providers are set from `ep` by the caller (ProvidersOf); a node placed on any
  // but the first is a fallback (see below).
  LoadOptions load;
  const ToleranceLayers* tolerances = nullptr;  // null: ONNX defaults only
  ToleranceOverride cli_tolerance;              // --rtol / --atol
  // --convert-to-opset: 0 runs the model as it is; N runs a copy that ONNX's version converter
  // brought to default-domain opset N (the golden still belongs to the original and is checked
  // against it). A model that imports a later opset, or that the converter cannot convert, is
  // SKIP with the reason; the record then shows the op versions of the converted model.
  int convert_to_opset = 0;
};

// Never fails: every problem becomes the record's verdict and one-line message. A case on a
// target one of whose providers the runtime says cannot run here
// (RuntimeUnderTest::ProviderAvailability is Unavailable, e.g. no OpenCL device) is SKIP with
// that reason and nothing else happens. Under --fallback warn and forbid the record lists the
// nodes placed on a provider other than the first (CaseRecord::fallbacks,
// harness/fallback_nodes.h), from the placements the runtime reports, whatever the runtime. The
// golden and the model's files are checked before the runtime sees the model:
//   golden unreadable or corrupted (a checksum mismatch: "golden corrupted") -> UNRESOLVED
//   golden compares nothing (no data sets, or a data set without outputs)    -> UNRESOLVED
//   a golden per-output tolerance outside conformance/tolerances.h's bounds  -> UNRESOLVED
//   model changed: model_sha256 or model_files_sha256 differ (stale golden)  -> UNRESOLVED
//   external data the golden cannot vouch for (it has no model_files_sha256) -> UNRESOLVED
//   the model's files cannot be read, parsed or hashed                       -> UNRESOLVED
//   golden missing an input                                                  -> UNRESOLVED
//   model load fails with UNIMPLEMENTED (the runtime declines)               -> UNSUPPORTED
//   model load fails otherwise (bad file, checker)                           -> UNRESOLVED
//   --fallback forbid and a node placed on a provider other than the first    -> UNSUPPORTED
//   --fallback forbid and no placement reported though nodes must be placed  -> UNRESOLVED
//     (every node at optimization level 0; above it, those that depend on a graph input)
//   run fails with UNIMPLEMENTED                                             -> UNSUPPORTED
//   run fails otherwise, or an output differs                                -> FAIL
CaseRecord RunCase(const RuntimeUnderTest& runtime, const Suite& suite, const SuiteCase& c,
                   const CaseRunOptions& options);

}  // namespace onnxgate
