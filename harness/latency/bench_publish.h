// The publish stage of `bench`: the header before measuring, the table and the verdict lines
// after, and the reports through the report writers (reports/report_writer.h), the JSON one
// with Google Benchmark's keys beside onnxgate's.
#pragma once

#include <string>
#include <vector>

#include "harness/latency/bench_command.h"
#include "harness/latency/bench_plan.h"
#include "harness/latency/bench_runner.h"
#include "harness/latency/fingerprint.h"
#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The machine, the measurement plan (the models, with their --dim shapes) and its clock and
// settings; `slowed_runs` says which runs a test-only --extra-work-percent slows.
void PrintBenchHeader(const BenchCommandOptions& o, const MachineFingerprint& fp,
                      const std::vector<BenchModel>& models, const char* slowed_runs = "every run");

// After a bench of one runtime: the table, and with --compare the missing baselines, every
// verdict but UNCHANGED (and an unchanged model whose file changed), the unreliable verdicts,
// the number of regressions and of new configurations; then the wall time.
void PrintBenchResults(const BenchCommandOptions& o, const RunRecord& run,
                       const BenchBaselines& baselines, int regressions);

// After `bench --against`: the table, every verdict but UNCHANGED, the number of regressions of
// the candidate against the reference, and the wall time.
void PrintAgainstResults(const BenchCommandOptions& o, const RunRecord& run,
                         const std::vector<std::string>& labels, int regressions);

// The reports the options ask for, in the order JSON, JUnit XML, Markdown, HTML; the first
// error stops the rest.
Status WriteBenchReports(const BenchCommandOptions& o, const RunRecord& run,
                         const std::vector<BenchMeasurement>& measured);

}  // namespace onnxgate
