// The Google Benchmark JSON format (the `--benchmark_format=json` output: "context" and
// "benchmarks") for bench measurements, so that tools written for Google Benchmark, such as its
// tools/compare.py, read `onnxgate bench --json` reports. onnxgate's own report keys sit beside
// these two at the top level; docs/report-json-schema.md describes both.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/latency/bench_runner.h"

namespace onnxgate {

// Google Benchmark's "context" object, as far as onnxgate knows it.
struct GbenchContext {
  std::string date;  // ISO 8601
  std::string host_name;
  std::string executable;
  int num_cpus = 0;
  int mhz_per_cpu = 0;
  bool cpu_scaling_enabled = false;
  std::vector<double> load_avg;
  std::string library_build_type;  // "release" or "debug", of onnxgate's build
};

// The context of this process and machine, from Google Benchmark's own CPU information.
GbenchContext CurrentGbenchContext(const std::string& executable);

// The benchmark name of one measurement: "<model>/<ep>/intra_op_threads:<n>", then
// "/<shapes>" ("/batch=4,seq=128") for a model with symbolic dimensions. Google
// Benchmark's "threads" counts the threads running the timed loop, always 1 here, so the
// runtime's thread count is a name part and the field "intra_op_threads".
std::string GbenchRunName(const BenchMeasurement& m);

// {"context": ..., "benchmarks": [...]}: per measurement, one entry per repetition (run_type
// "iteration", times in ms of one run) and then the aggregates Google Benchmark computes over
// repetitions: mean, median, stddev (sample) and cv (aggregate_unit "percentage", a fraction).
// Each entry also carries onnxgate's "model", "ep", "intra_op_threads" and "clock" (which of
// real_time and cpu_time the onnxgate statistics use).
nlohmann::ordered_json RenderGbenchJson(const GbenchContext& context,
                                        const std::vector<BenchMeasurement>& measurements,
                                        BenchClock clock);

}  // namespace onnxgate
