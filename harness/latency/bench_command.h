// `onnxgate bench` and `onnxgate baseline update`: pick the models (the generated zoo by
// default), measure each model x EP x thread count x shapes, then compare with this machine's
// baselines and write the reports, or bless the numbers as the new baselines. A model that cannot
// be measured is that model's error in the reports while the others are measured. Exit codes:
// 0 every combination measured and no regression; 1 every combination measured and a latency
// regression (or, with fail_on_new, a new configuration); 2 a combination that could not be
// measured (after the reports, which hold the others), or a usage or infrastructure error before
// measuring (including a baseline from another machine fingerprint, which is refused).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "harness/history/history_from_run.h"
#include "harness/latency/bench_runner.h"
#include "harness/models/model_inputs.h"
#include "reports/junit_writer.h"
#include "runtime/api/runtime.h"

namespace onnxgate {

struct BenchCommandOptions {
  std::string root;                      // holds golden/baselines/ by default
  std::string models_dir;                // empty: generate the zoo into a temporary folder
  std::vector<std::string> model_globs;  // on the model name; empty: all
  // --quick without --model: only mlp and mobilenet_v2 (kQuickModels) where the models include
  // either, else every model.
  bool quick_models = false;
  std::vector<std::string> eps = {"ref"};
  // --dim: sizes of named symbolic dimensions; every combination of the sizes of the dimensions
  // a model has is one measurement of it. A name no measured model has is a usage error.
  std::map<std::string, std::vector<int64_t>> dims;
  // --input: .pb files or one .npz (or a folder of .pb files) feeding every measurement, instead
  // of generated values; each --dim then gives one size.
  std::vector<std::string> input_files;
  InputRanges input_ranges;  // --input-range, over the models' metadata ranges
  std::vector<int> threads = {1};
  BenchSettings settings;
  // Passes over all models x EPs x thread counts, one after the other; each measures every
  // combination with settings.repetitions repetitions and the samples are pooled. More rounds
  // spread a measurement over more of the machine's slow and fast spells.
  int rounds = 1;
  // Wall-clock seconds one measurement (load, first run, steady state) may take in its worker
  // process before it is killed; in (0, kMaxBenchTimeoutSeconds].
  double timeout_s = 600;
  bool compare = false;
  // With compare: a configuration never measured before (no baseline entry for its model name,
  // threads and shapes, or no baseline file) fails the bench (exit 1) as a regression does.
  bool fail_on_new = false;
  std::string baselines_dir;    // default <root>/golden/baselines
  std::string baseline_file;    // an explicit baseline file instead (one EP only)
  std::string thresholds_file;  // default <baselines_dir>/thresholds.json (optional file)
  std::string json_path, junit_path, markdown_path, html_path;
  JunitSchema junit_schema = JunitSchema::kStrict;
  // --history: the results appended to this history after the reports (its database empty:
  // none); an error there is exit 2, the reports already written.
  HistoryTarget history;
  // How --runtime and --against named the runtimes, for the reports of a comparison.
  std::string runtime_spec = "builtin";
  std::string against_spec;
  std::vector<std::string> command_line;  // as invoked, for the reports
  std::string tool_version = "unknown";
  std::FILE* out = stdout;  // table and progress
  std::FILE* err = stderr;
  bool progress_ticks = false;  // a dot per Google Benchmark loop entry (for terminals)
};

inline constexpr double kMaxBenchTimeoutSeconds = 24 * 3600.0;
inline constexpr const char* kQuickModels[] = {"mlp", "mobilenet_v2"};

int RunBenchCommand(const BenchCommandOptions& options, const RuntimeUnderTest& runtime);
int RunBaselineUpdateCommand(const BenchCommandOptions& options, const RuntimeUnderTest& runtime);
// `bench --runtime A --against B`: measures the candidate A and the reference B in alternating
// turns on the same machine (each model x EP x thread count on A, then on B, the order swapped
// every round), so machine drift falls on both alike, and judges each of A's measurements
// against B's with the comparator and the thresholds (--thresholds, else thresholds.json in
// the baselines folder when present). B runs each of A's EPs it offers, else its first. Exit 1
// when A is slower beyond them anywhere.
int RunBenchAgainstCommand(const BenchCommandOptions& options, const RuntimeUnderTest& candidate,
                           const RuntimeUnderTest& reference);

}  // namespace onnxgate
