// The commands on users' own models (record, check-model, diff, sweep) load and run the model
// only in worker processes (harness/worker.h), one step at a time (a load and its runs), each
// under the command's --timeout and --memory-limit: a kernel that crashes, hangs or allocates
// without bound ends that step with an error naming it ("the run of m.onnx on builtin ref, ...
// crashed: killed by SIGSEGV while running m.onnx"), and the command itself goes on to report
// it. --isolation none runs the steps in the command's own process, for debuggers; worker and
// case both give each step a worker process of its own (a step is one whole load and its runs,
// made from what the steps before it returned, so it cannot be sent to a worker forked before).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/models/value_groups.h"
#include "harness/worker.h"
#include "runtime/api/runtime.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The defaults and bounds of --timeout and --memory-limit, as run and gate have them (one model
// step may take longer than one node-test case, hence the longer default).
inline constexpr double kDefaultModelStepTimeoutSeconds = 600;
inline constexpr double kMaxModelStepTimeoutSeconds = 7 * 24 * 3600.0;
inline constexpr int64_t kDefaultModelMemoryLimitMb = 4096;
inline constexpr int64_t kMinModelMemoryLimitMb = 256;

struct ModelWorkerOptions {
  double timeout_s = kDefaultModelStepTimeoutSeconds;    // wall clock per step
  int64_t memory_limit_mb = kDefaultModelMemoryLimitMb;  // address space per worker; 0: none
  // kNone: steps run in this process (no containment); kWorker and kCase: each step runs in a
  // worker process of its own.
  Isolation isolation = Isolation::kWorker;
};

// InvalidArgument naming the option: a timeout that is not a number of seconds in
// (0, kMaxModelStepTimeoutSeconds], a memory limit neither 0 nor in
// [kMinModelMemoryLimitMb, 2^30].
Status ValidateModelWorkerOptions(const ModelWorkerOptions& options);

// Runs the steps of one command. Before the first step, each runtime the steps use gets one
// worker slot (RuntimeUnderTest::PrepareWorkerSlots), which every step enters, and ONNX's schema
// registry, which every load consults, is built here once so that each step's worker inherits it
// instead of building it again. Nothing of a runtime's own code runs in this process.
class ModelWorker {
 public:
  ModelWorker(ModelWorkerOptions options, std::vector<const RuntimeUnderTest*> runtimes);

  // Runs `step` in a worker and returns what it returned, its error unchanged. A step that
  // crashes, runs past the timeout or the memory limit, or is stopped (SIGINT) is Aborted:
  // "<what> crashed: killed by SIGSEGV while <breadcrumb>", "<what> timed out after 1.0 s
  // (limit 1.0 s) while ...", "<what> ran out of its memory limit ..."; `what` names the step
  // ("the run of m.onnx on builtin ref, optimization level 0, 1 thread(s)"). Steps say what they
  // are doing with SetWorkerBreadcrumb.
  StatusOr<std::string> RunText(const std::string& what,
                                const std::function<StatusOr<std::string>()>& step);
  // The same for a step that returns values.
  StatusOr<ValueGroups> RunValues(const std::string& what,
                                  const std::function<StatusOr<ValueGroups>()>& step);

  // Whether the last step died in its worker (crashed, ran out of time or memory, was stopped)
  // rather than returning, its error or its result.
  bool last_step_died() const { return last_step_died_; }
  const ModelWorkerOptions& options() const { return options_; }

 private:
  ModelWorkerOptions options_;
  std::vector<const RuntimeUnderTest*> runtimes_;
  bool prepared_ = false;
  bool last_step_died_ = false;
};

}  // namespace onnxgate
