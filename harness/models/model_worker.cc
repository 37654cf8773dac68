// Model steps of the users'-model commands in worker processes (see model_worker.h).
#include "harness/models/model_worker.h"

#include <algorithm>

#include "harness/worker.h"
#include "reports/format.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

// Without a memory limit, a result may be up to 2^40 bytes (1 TiB): the machine's memory bounds
// it long before.
constexpr int kUnlimitedPayloadShift = 40;

}  // namespace

Status ValidateModelWorkerOptions(const ModelWorkerOptions& o) {
  // NaN fails every comparison, so the test lets only good values through.
  if (!(o.timeout_s > 0 && o.timeout_s <= kMaxModelStepTimeoutSeconds)) {
    return InvalidArgument("--timeout must be a number of seconds in (0, " +
                           std::to_string(static_cast<int64_t>(kMaxModelStepTimeoutSeconds)) +
                           "], got " + FormatNumber(o.timeout_s));
  }
  if (o.memory_limit_mb != 0 &&
      (o.memory_limit_mb < kMinModelMemoryLimitMb || o.memory_limit_mb > (int64_t{1} << 30))) {
    return InvalidArgument("--memory-limit must be 0 (none) or at least " +
                           std::to_string(kMinModelMemoryLimitMb) + " MiB, got " +
                           std::to_string(o.memory_limit_mb));
  }
  return OkStatus();
}

ModelWorker::ModelWorker(ModelWorkerOptions options, std::vector<const RuntimeUnderTest*> runtimes)
    : options_(options) {
  for (const RuntimeUnderTest* r : runtimes) {
    if (r != nullptr && std::find(runtimes_.begin(), runtimes_.end(), r) == runtimes_.end()) {
      runtimes_.push_back(r);
    }
  }
}

StatusOr<std::string> ModelWorker::RunText(const std::string& what,
                                           const std::function<StatusOr<std::string>()>& step) {
  last_step_died_ = false;
  if (!prepared_) {
    if (options_.isolation != Isolation::kNone) {
      (void)SinceVersions("", "Identity");  // builds ONNX's whole schema registry, once
    }
    for (const RuntimeUnderTest* r : runtimes_) {
      if (Status st = r->PrepareWorkerSlots(1); !st.ok()) {
        return st.WithContext("preparing the worker of " + r->name());
      }
    }
    prepared_ = true;
  }
  WorkerOptions wo;
  wo.parallelism = 1;
  wo.timeout_seconds = options_.timeout_s;
  wo.memory_limit_bytes = static_cast<size_t>(options_.memory_limit_mb) << 20;
  // A model's outputs (and a layerwise record's intermediate values) can be large; the worker
  // cannot build a result larger than its own memory limit anyway.
  wo.max_payload_bytes =
      wo.memory_limit_bytes > 0 ? wo.memory_limit_bytes : size_t{1} << kUnlimitedPayloadShift;
  // A step's closure is made after the steps before it returned, so it cannot be sent to a
  // worker forked earlier: worker and case mode alike fork a worker per step.
  wo.isolation = options_.isolation == Isolation::kNone ? Isolation::kNone : Isolation::kCase;
  wo.enter_slot = [this](int slot) {
    for (const RuntimeUnderTest* r : runtimes_) r->EnterWorkerSlot(slot);
  };
  ScopedStopSignals stop_signals;  // Ctrl-C ends the step's worker, then this command
  WorkerPool pool(wo);
  const std::vector<JobResult> results = pool.Run({[&step] { return EncodeStepResult(step()); }});
  const JobResult& result = results.front();
  last_step_died_ = result.outcome != JobOutcome::kOk;
  if (result.started) {
    for (const RuntimeUnderTest* r : runtimes_) {
      r->LeaveWorkerSlot(result.slot, result.outcome == JobOutcome::kOk);
    }
  }
  switch (result.outcome) {
    case JobOutcome::kOk: return DecodeStepResult(result.payload, what);
    case JobOutcome::kTimeout: return Aborted(what + " " + result.message);
    case JobOutcome::kCrash:
      return Aborted(what +
                     (result.signal != 0 || result.exit_code > 0 ? " crashed: " : " failed: ") +
                     result.message);
    case JobOutcome::kNotRun: break;
  }
  return Aborted(what + " was " + result.message);
}

StatusOr<ValueGroups> ModelWorker::RunValues(const std::string& what,
                                             const std::function<StatusOr<ValueGroups>()>& step) {
  const auto encoded_step = [&step]() -> StatusOr<std::string> {
    StatusOr<ValueGroups> groups = step();
    if (!groups.ok()) return groups.status();
    return EncodeValueGroups(*groups);
  };
  ONNXGATE_ASSIGN_OR_RETURN(std::string bytes, RunText(what, encoded_step));
  return DecodeValueGroups(bytes, what);
}

}  // namespace onnxgate
