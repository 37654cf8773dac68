// The plan stage of `bench`, `bench --against` and `baseline update`: the options checked, the
// models resolved (the zoo generated into a temporary folder, or a folder's .onnx files), and
// the thresholds and baselines read, all before anything is measured, so that a wrong file
// fails in seconds.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/latency/baseline.h"
#include "harness/latency/bench_command.h"
#include "harness/latency/fingerprint.h"
#include "harness/latency/thresholds.h"
#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// A folder under $TMPDIR (or /tmp) removed with everything in it when this goes away.
class TempDir {
 public:
  TempDir() = default;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  Status Create();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// InvalidArgument naming the option: no --ep or --threads, a thread count below 1, a timeout
// outside (0, kMaxBenchTimeoutSeconds], rounds outside [1, 100], an optimization level out of
// range, --baseline with more than one EP; --input files that are not one data set (input_sets.h)
// or that come with a --dim of several sizes or an --input-range.
Status ValidateBenchOptions(const BenchCommandOptions& o);

// The files of the one data set --input gives (input_sets.h: .pb files, a folder of them, or one
// .npz); empty when none is given. InvalidArgument naming the path for anything else.
StatusOr<std::vector<std::string>> BenchInputFiles(const BenchCommandOptions& o);

// One model a bench measures and the shapes it measures it at.
struct BenchModel {
  std::string name;  // the file name without extension; "x" for <folder>/x/model.onnx
  std::string path;
  std::set<std::string> dims;    // the symbolic dimensions of its inputs
  std::vector<DimSizes> shapes;  // the --dim combinations that apply to it (one, maybe empty)
  std::string error;             // why it cannot be measured (unreadable); empty when it can
};

// The models to measure, filtered by the --model globs (on the name; --quick: kQuickModels where
// there are any), in name order: the zoo
// generated into `temp` when no folder is given, else the folder's .onnx and .onnxtxt files and
// its subfolders': a subfolder holding model.onnx (or model.onnxtxt) is one model named after the
// subfolder, its other files being the model's (external data); else each model file in it is a
// model "<subfolder>/<name>". A subfolder with no model file is reported on o.err, not skipped
// silently. NotFound when nothing is left to measure.
StatusOr<std::vector<BenchModel>> ResolveBenchModels(const BenchCommandOptions& o, TempDir* temp);

// Reads each model to find its symbolic dimensions and the shapes to measure it at; a model that
// cannot be read keeps its error (it is that model's, reported; the others are measured).
// InvalidArgument for a --dim that no model has (model_feeds.h's ParseDimFlags refused sizes < 1
// already); only a warning on o.err when a model that could not be read might have it.
Status PlanBenchShapes(const BenchCommandOptions& o, std::vector<BenchModel>* models);

// --baseline-file, else the EP's file under the baselines folder (its name checked there).
StatusOr<std::string> BaselineFilePath(const BenchCommandOptions& o, const MachineFingerprint& fp,
                                       const std::string& ep);

// --thresholds, else thresholds.json in the baselines folder (the defaults when it is absent).
StatusOr<LatencyThresholds> LoadBenchThresholds(const BenchCommandOptions& o);

// The baselines of each EP for --compare, and the file each one is (or would be) in.
struct BenchBaselines {
  std::map<std::string, std::optional<BaselineFile>> files;  // nullopt: this machine has none
  std::map<std::string, std::string> paths;
};
// An error when a file exists but is unreadable or belongs to another fingerprint, runtime,
// clock or optimization level (or an explicit --baseline file does not exist).
StatusOr<BenchBaselines> LoadBenchBaselines(const BenchCommandOptions& o,
                                            const MachineFingerprint& fp,
                                            const RuntimeUnderTest& runtime);

// The record of a bench starting now: the tool, the runtime, the host and the selection.
RunRecord StartBenchRecord(const BenchCommandOptions& o, const MachineFingerprint& fp,
                           const RuntimeUnderTest& runtime);

}  // namespace onnxgate
