// The judge stage of `run` and `gate`: each record's expectation (gate), then the run as a
// whole: the judged cases apart from those a stop left unrun, the totals, the conformance
// matrix and the operator coverage.
#pragma once

#include "harness/run_execute.h"
#include "harness/run_plan.h"
#include "reports/records.h"

namespace onnxgate {

// Gate: applies the expectation of the record's runtime and EP (XFAIL, XPASS, expected
// UNSUPPORTED); run: leaves the record as it is.
void JudgeCase(const RunPlan& plan, const CaseRequest& request, CaseRecord& record);

// A gate's outcome over a judged run: the unexpected outcomes by kind (IsUnexpected under
// options.strict), passed when there are none and the run completed, and the expectations file
// of each runtime/EP (relative to options.root when inside it) with its entry count, or
// found = false with the path looked for.
GateRecord JudgeGate(const RunPlan& plan, const RunRecord& run);

// Fills `run` from the execution: the records of the requests that ran; a request that never
// ran without a stop (fork or pipe failed) is an infrastructure problem with that case,
// UNRESOLVED and judged; one a stop left unrun is listed in run->not_run (the run is then
// interrupted, saying by what and how many finished), so the totals, the matrix and the
// coverage count only what was judged. Sets the end time and duration, and run->gate (JudgeGate)
// for a gate.
void JudgeRun(const RunPlan& plan, Execution execution, RunRecord* run);

}  // namespace onnxgate
