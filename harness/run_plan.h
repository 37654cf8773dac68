// The plan stage of `run` and `gate`: the options checked, the suites loaded, the tolerance
// layers and the expectation files read, and the case requests (case x runtime x EP) built, all
// before anything runs, so that every usage error is exit 2 in seconds. The plan is what the
// execute, judge and publish stages read.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/expectations.h"
#include "conformance/tolerances.h"
#include "harness/run_command.h"
#include "harness/suite.h"
#include "reports/records.h"
#include "runtime/base/status.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

// One case on one EP of one of the run's runtimes. A worker gets it directly: a forked child
// inherits it, and the suite it points into, in memory, so nothing about it is encoded.
struct CaseRequest {
  const Suite* suite = nullptr;
  const SuiteCase* c = nullptr;
  size_t runtime = 0;  // index into RunPlan::runtimes
  std::string ep;
};

// (runtime index, EP): the key of a runtime's expectations for one EP.
using RuntimeEp = std::pair<size_t, std::string>;

struct RunPlan {
  RunPlan() = default;
  // Requests point into `suites`: a plan is moved (vectors keep their elements), never copied.
  RunPlan(RunPlan&&) = default;
  RunPlan& operator=(RunPlan&&) = default;
  RunPlan(const RunPlan&) = delete;
  RunPlan& operator=(const RunPlan&) = delete;

  RunCommandOptions options;
  std::vector<RuntimeInRun> runtimes;
  std::vector<std::string> labels;  // RuntimeLabels of `runtimes`, for side-by-side records
  bool side_by_side = false;        // more than one runtime
  std::vector<Suite> suites;
  ToleranceLayers tolerances;
  // Gate only: each runtime's expectations per EP, and the file each came from.
  std::map<RuntimeEp, ExpectationFile> expectations;
  std::map<RuntimeEp, std::string> expectation_paths;
  // The keys whose file exists; the others were judged by an empty file (every case must pass).
  std::set<RuntimeEp> expectations_found;
  std::vector<CaseRequest> requests;  // suite order, selection order, runtime, EP
  // --against-report, read before anything runs.
  std::optional<RunRecord> release;
  // ONNX's operator versions, for coverage (filled by PrepareWorkers, before any fork).
  std::vector<OperatorVersions> operators;
};

// InvalidArgument or the loaders' errors, each the message `onnxgate:` prints before exit 2:
// invalid options (ValidateRunOptions), no runtime, an EP that is not a safe name or that a
// runtime neither lists nor claims, no suite, a suite that does not load, a --case naming no
// case, an unreadable tolerances or expectations file, a selection that matches no case.
StatusOr<RunPlan> PlanRun(const RunCommandOptions& options,
                          const std::vector<RuntimeInRun>& runtimes);

// The record of the run as it starts now: tool, runtimes, host, suites and selection.
RunRecord StartRunRecord(const RunPlan& plan);

}  // namespace onnxgate
