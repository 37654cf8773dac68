// One bench measurement in a worker process (harness/worker.h), as `run` runs a case: a kernel
// that crashes ends that measurement with a message naming the signal, one that hangs is killed
// at the timeout, and the bench process itself survives both to say so.
#pragma once

#include <string>

#include "harness/latency/bench_runner.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

// MeasureModel in a forked child; the measurement (or its error) comes back serialized. A child
// killed by a signal, or one that exits without a result, is Internal "... the measurement
// crashed: killed by SIGSEGV"; one past `timeout_s` (wall clock, > 0) is killed with its process
// group and is Unavailable "... the measurement timed out after N s". The observer's hooks run in
// the child (what they print reaches the same stdout).
StatusOr<BenchMeasurement> MeasureModelIsolated(const RuntimeUnderTest& runtime,
                                                const std::string& model_path,
                                                const std::string& ep, int threads,
                                                const BenchSettings& settings, double timeout_s,
                                                BenchObserver* observer = nullptr);

// MeasurePair in one forked child, with the same containment; `timeout_s` covers both sides.
StatusOr<std::array<BenchMeasurement, 2>> MeasurePairIsolated(
    const BenchTarget& first, const BenchTarget& second, int threads, const BenchSettings& settings,
    double timeout_s, BenchObserver* observer = nullptr);

// The worker's answer as it crosses the process boundary: the measurement, or the error's code by
// name (StatusCodeName) and message. Decode gives back the error as sent (an unknown code name is
// Internal), or Internal "<what>: the worker's result is unreadable: <path>: ..." for a malformed
// one.
std::string EncodeMeasurementResult(const StatusOr<BenchMeasurement>& measurement);
StatusOr<BenchMeasurement> DecodeMeasurementResult(const std::string& payload,
                                                   const std::string& what);

}  // namespace onnxgate
