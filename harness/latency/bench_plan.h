// The plan stage of `bench`, `bench --against` and `baseline update`: the options checked, the
// models resolved (the zoo generated into a temporary folder, or a folder's .onnx files), and
// the thresholds and baselines read, all before anything is measured, so that a wrong file
// fails in seconds.
#pragma once

#include <map>
#include <optional>
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
// range, --baseline with more than one EP.
Status ValidateBenchOptions(const BenchCommandOptions& o);

// The .onnx files to measure: generated into `temp` when no folder is given, else the folder's
// .onnx files in name order; either way filtered by the globs.
StatusOr<std::vector<std::string>> ResolveBenchModels(const BenchCommandOptions& o, TempDir* temp);

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
