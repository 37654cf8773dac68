// `onnxgate run` and `onnxgate gate`: select cases, run each in a worker process on each EP,
// apply expectations (gate), write the reports, print a summary and one reproducer line per
// unexpected case (the first 50), and return the exit code (0 met, 1 unexpected results, 2
// usage/infra or interrupted: the reports then say so and list the cases not run).
#pragma once

#include <string>
#include <vector>

#include "conformance/tolerances.h"
#include "harness/history/history_from_run.h"
#include "harness/selection.h"
#include "harness/worker.h"
#include "reports/junit_writer.h"
#include "runtime/api/runtime.h"

namespace onnxgate {

// Bounds and defaults of the numeric options.
inline constexpr int kMaxJobs = 1024;
inline constexpr int64_t kDefaultMemoryLimitMb = 4096;
inline constexpr int64_t kMinMemoryLimitMb = 256;  // below it the worker cannot start a case
inline constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600.0;

struct RunCommandOptions {
  std::string root;                 // holds suites/, golden/data/, conformance/
  std::vector<std::string> suites;  // suite names
  // The EPs of the one-runtime form of RunCommand; RuntimeInRun::eps in the other.
  std::vector<std::string> eps = {"ref"};
  Selection selection;
  int jobs = 1;
  double timeout_s = 60;  // wall clock per case; also its CPU-time limit
  // Address space per worker in MiB (RLIMIT_AS); 0 means none.
  int64_t memory_limit_mb = kDefaultMemoryLimitMb;
  // Where cases run: long-lived workers, a process per case, or this process (harness/worker.h).
  // A runtime whose NeedsCaseIsolation() is true gets a process per case in worker mode.
  Isolation isolation = Isolation::kWorker;
  bool apply_expectations = false;  // gate
  // A JSON report of an earlier run of the same suites (the last release's): a case whose raw
  // outcome got worse than in it fails the run (harness/report_diff.h); empty: none.
  std::string against_report;
  bool strict = true;            // an XPASS fails the gate
  std::string expectations_dir;  // default: <root>/conformance/expectations
  // A registry runtime's name (ort), which names its file (ort.json); empty otherwise. The
  // file of each runtime/EP is named by ExpectationsFileName (conformance/expectations_naming.h).
  std::string expectations_name;
  std::string tolerances_file;  // default: <root>/conformance/tolerances.json when present
  ToleranceOverride cli_tolerance;
  FallbackPolicy fallback = FallbackPolicy::kAllow;
  // Graph optimization level every model is loaded at (LoadOptions::optimization_level): 0
  // none, 1 constant folding and dead nodes, 2 fusions too.
  int optimization_level = 0;
  // Run every case's model converted to this default-domain opset by ONNX's version converter
  // (CaseRunOptions::convert_to_opset); 0: as it is.
  int convert_to_opset = 0;
  std::string junit_path, json_path, markdown_path, html_path;
  JunitSchema junit_schema = JunitSchema::kStrict;
  // --history: the run appended to this history after the reports (its database empty: none);
  // an error there is exit 2, the reports already written. An interrupted run is not appended.
  HistoryTarget history;
  // The console: a line per case as it ends for unexpected outcomes only (expected ones are
  // counted in the summary), every case with `verbose`, none with `quiet` (the summary alone).
  bool verbose = false;
  bool quiet = false;
  std::vector<std::string> command_line;  // as invoked, for the report
  std::string executable = "onnxgate";    // for reproducer lines
  // How the runtime was named (--runtime, --runtime-option), for reproducer lines: the
  // one-runtime form of RunCommand; RuntimeInRun in the other.
  std::string runtime_spec = "builtin";
  std::vector<std::string> runtime_options;
};

// One runtime of a run: the runtime, how the command line named it, and the EPs it runs on.
struct RuntimeInRun {
  const RuntimeUnderTest* runtime = nullptr;
  std::string spec = "builtin";      // --runtime, for reproducer lines
  std::vector<std::string> options;  // --runtime-option key=value, for reproducer lines
  // A registry runtime's name (ort), which names its file (ort.json); empty otherwise. The
  // file of each runtime/EP is named by ExpectationsFileName (conformance/expectations_naming.h).
  std::string expectations_name;
  std::vector<std::string> eps;
};

// InvalidArgument naming the option: jobs outside [1, kMaxJobs], a timeout that is not a number
// of seconds in (0, kMaxTimeoutSeconds], a memory limit that is neither 0 nor at least
// kMinMemoryLimitMb, a command-line tolerance outside its bounds, an EP (of options.eps) or
// suite name that could not be one path component (see CheckSafeName).
Status ValidateRunOptions(const RunCommandOptions& options);

// Runs every selected case on each EP of each runtime. Several runtimes make a side-by-side run:
// each record names its runtime's label (the runtime's name; name@version, or name#N, where
// names repeat) and the reports show a column per runtime/EP. Prints progress and the summary
// to stdout, errors to stderr; exit 2 for invalid options.
int RunCommand(const RunCommandOptions& options, const std::vector<RuntimeInRun>& runtimes);
// One runtime, named by options.runtime_spec/runtime_options/expectations_name, on options.eps.
int RunCommand(const RunCommandOptions& options, const RuntimeUnderTest& runtime);

// The one-line /bin/sh command that runs `case_name` of `suite` alone on `ep` of `runtime`: the
// same command (run or gate), the case selected by its exact name (--case=<suite>/<name>), and
// every option of `options` that can change its verdict. Each word is quoted by
// ShellWordForTerminal, so the line is safe to print and pastes back to the exact name.
std::string ReproducerCommand(const RunCommandOptions& options, const RuntimeInRun& runtime,
                              const std::string& suite, const std::string& case_name,
                              const std::string& ep);

}  // namespace onnxgate
