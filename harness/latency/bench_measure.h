// The measure stage of `bench`: every model x EP x thread count x shapes, round after round, each
// measurement in a worker process of its own (harness/latency/isolated_measure.h), with a
// progress line per measurement; on one runtime, or on a candidate and a reference side by side.
// A measurement that fails (a model that cannot be read, loaded or run, a crash, a timeout, a
// fallback --fallback forbid refuses) is that combination's error; the others are measured.
#pragma once

#include <string>
#include <vector>

#include "harness/latency/bench_command.h"
#include "harness/latency/bench_plan.h"
#include "harness/latency/bench_runner.h"
#include "reports/records.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

// One runtime a bench measures and its EPs. In a comparison (--against) the reference's eps[i]
// is measured beside the candidate's eps[i].
struct BenchSide {
  const RuntimeUnderTest* runtime = nullptr;
  std::vector<std::string> eps;
  std::string label;  // empty for a bench of one runtime
  // Whether the test-only extra work (--extra-work-percent) slows this side: the one runtime of a
  // bench, the candidate of a comparison (so a detector's sensitivity can be shown against an
  // unslowed reference).
  bool extra_work = true;
};

// What a bench measured: per side, the pooled measurements, in the same combination order on
// each (with two sides, sample i of one was measured beside sample i of the other); and a record
// (verdict kError, the message saying why) for each combination that could not be measured on
// every round, which has no measurement on any side.
struct BenchOutcome {
  std::vector<std::vector<BenchMeasurement>> sides;
  std::vector<LatencyRecord> errors;
};

// Measures every model x EP x thread count x shapes, round after round: on one side, or on two
// side by side (MeasurePairIsolated: their repetitions take turns in one worker, and the side
// that starts swaps every round), so that the machine's slow and fast spells fall on both alike.
// A combination that fails is not measured again in later rounds. InvalidArgument, before
// anything is measured, for a --threads value an EP cannot honour, or --input files that are not
// one data set.
StatusOr<BenchOutcome> MeasureSides(const BenchCommandOptions& o,
                                    const std::vector<BenchSide>& sides,
                                    const std::vector<BenchModel>& models);

// A bench of one runtime on o.eps.
StatusOr<BenchOutcome> MeasureRuntime(const BenchCommandOptions& o, const RuntimeUnderTest& runtime,
                                      const std::vector<BenchModel>& models);

}  // namespace onnxgate
