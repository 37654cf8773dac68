// ExecuteRun: the worker pool over the plan's case requests, results back through the codec.
#include "harness/run_execute.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>

#include "golden/golden_file.h"
#include "harness/case_result_codec.h"
#include "harness/case_runner.h"
#include "harness/ep_target.h"
#include "harness/stderr_capture.h"
#include "reports/text_escape.h"
#include "runtime/base/sha256.h"

namespace onnxgate {

namespace {

// The job of one request, run in the worker: the case on its runtime and EP, encoded.
std::string RunRequest(const RunPlan& plan, const CaseRequest& request) {
  const RunCommandOptions& options = plan.options;
  CaseRunOptions o;
  o.ep = request.ep;
  o.load.providers = ProvidersOf(request.ep);
  o.load.fallback = options.fallback;
  o.load.optimization_level = options.optimization_level;
  o.convert_to_opset = options.convert_to_opset;
  o.tolerances = &plan.tolerances;
  o.cli_tolerance = options.cli_tolerance;
  CaseResult result;
  // What the runtime logs goes into the case's record, not to the console.
  StderrCapture runtime_log;
  result.record = RunCase(*plan.runtimes[request.runtime].runtime, *request.suite, *request.c, o);
  result.record.runtime_log = runtime_log.Finish(kMaxRuntimeLogBytes, kRuntimeLogTruncated);
  return EncodeCaseResult(result);
}

WorkerOptions PoolOptions(const RunPlan& plan) {
  const RunCommandOptions& options = plan.options;
  WorkerOptions wo;
  wo.enter_slot = [&plan](int slot) {
    for (const RuntimeInRun& r : plan.runtimes) r.runtime->EnterWorkerSlot(slot);
  };
  wo.leave_slot = [&plan](int slot, bool clean) {
    bool replaced = false;
    for (const RuntimeInRun& r : plan.runtimes) replaced |= r.runtime->LeaveWorkerSlot(slot, clean);
    return replaced;
  };
  wo.needs_own_process = [&plan](size_t index) {
    return plan.runtimes[plan.requests[index].runtime].runtime->NeedsCaseIsolation();
  };
  wo.parallelism = std::max(1, options.jobs);
  wo.timeout_seconds = options.timeout_s;
  wo.cpu_limit_seconds = options.timeout_s;  // cases load with one intra-op thread
  wo.memory_limit_bytes = static_cast<size_t>(options.memory_limit_mb) << 20;
  wo.isolation = options.isolation;
  return wo;
}

// How the run header names the isolation mode.
const char* IsolationWords(Isolation isolation) {
  switch (isolation) {
    case Isolation::kWorker: return "";
    case Isolation::kCase: return ", a process per case";
    case Isolation::kNone: return ", no isolation";
  }
  return "";
}

// The runtime's label in a side-by-side run, and the reproducer.
void Label(const RunPlan& plan, const CaseRequest& request, CaseRecord* r) {
  if (plan.side_by_side) r->runtime = plan.labels[request.runtime];
  r->reproducer = RequestReproducer(plan, request);
}

}  // namespace

std::string RequestReproducer(const RunPlan& plan, const CaseRequest& request) {
  return ReproducerCommand(plan.options, plan.runtimes[request.runtime], request.suite->name,
                           request.c->name, request.ep);
}

void PrintRunHeader(const RunPlan& plan) {
  const RunCommandOptions& options = plan.options;
  const std::string runtimes =
      plan.side_by_side ? " on " + std::to_string(plan.runtimes.size()) + " runtimes" : "";
  std::printf("onnxgate %s: %zu case(s) x EP from %zu suite(s)%s, %d worker(s)%s\n",
              options.apply_expectations ? "gate" : "run", plan.requests.size(), plan.suites.size(),
              runtimes.c_str(), options.jobs, IsolationWords(options.isolation));
  std::fflush(stdout);
}

Status PrepareWorkers(RunPlan* plan) {
  // Lazily built process-wide state (ONNX's schema registry, HDF5's library state, OpenSSL's
  // digests, each EP's kernel registry) is built here, once, so that every forked worker
  // inherits it instead of building it again per case.
  plan->operators = AllOperators();
  InitializeGoldenIo();
  Sha256Hex("");
  // Claims() is called for its cache only: an EP whose claims fail here is judged per case
  // (SKIP when unavailable, UNRESOLVED otherwise), where its error lands in that case's record.
  for (const RuntimeInRun& r : plan->runtimes) {
    for (const std::string& ep : r.eps) {
      for (const std::string& provider : ProvidersOf(ep)) (void)r.runtime->Claims(provider);
    }
  }
  // Free heap pages go back to the system, so a worker's allocations land on fresh zero pages
  // instead of copying the parent's scattered free chunks page by page (about 5% of a gate).
  malloc_trim(0);
  for (size_t i = 0; i < plan->runtimes.size(); ++i) {
    const int slots = std::max(1, plan->options.jobs);
    if (Status st = plan->runtimes[i].runtime->PrepareWorkerSlots(slots); !st.ok()) {
      return st.WithContext("preparing the workers of runtime " + plan->labels[i]);
    }
  }
  return OkStatus();
}

CaseRecord RecordWithoutResult(const RunPlan& plan, const CaseRequest& request,
                               const JobResult& result, Verdict verdict) {
  CaseRecord r;
  r.suite = request.suite->name;
  r.name = request.c->name;
  r.op_types = request.c->op_types;
  r.opset_imports = request.c->opset_imports;
  r.ep = request.ep;
  r.outcome = r.verdict = verdict;
  r.message = "worker " + result.message;
  r.duration_s = result.seconds;
  Label(plan, request, &r);
  return r;
}

CaseRecord RecordFromResult(const RunPlan& plan, const CaseRequest& request,
                            const JobResult& result) {
  if (result.outcome != JobOutcome::kOk) {
    return RecordWithoutResult(
        plan, request, result,
        result.outcome == JobOutcome::kTimeout ? Verdict::kTimeout : Verdict::kCrash);
  }
  StatusOr<CaseResult> decoded = DecodeCaseResult(result.payload);
  if (!decoded.ok()) {
    CaseRecord r = RecordWithoutResult(plan, request, result, Verdict::kCrash);
    r.message = "unreadable " + decoded.status().message();
    return r;
  }
  if (!decoded->status.ok()) {
    CaseRecord r = RecordWithoutResult(plan, request, result, Verdict::kUnresolved);
    r.message = "worker could not run the case: " + decoded->status.ToString();
    return r;
  }
  CaseRecord r = std::move(decoded->record);
  if (result.ran_out_of_memory && r.verdict != Verdict::kPass) {
    // The runtime caught the failed allocation and failed the case: the limit is the reason.
    r.outcome = r.verdict = Verdict::kCrash;
    r.message = "ran out of its memory limit of " + std::to_string(plan.options.memory_limit_mb) +
                " MiB: " + r.message;
  }
  Label(plan, request, &r);
  return r;
}

Execution ExecuteRun(const RunPlan& plan, const CaseCallback& on_case) {
  std::vector<Job> jobs;
  jobs.reserve(plan.requests.size());
  for (const CaseRequest& request : plan.requests) {
    jobs.push_back([&plan, &request] { return RunRequest(plan, request); });
  }
  Execution execution;
  execution.records.resize(plan.requests.size());
  size_t done = 0;
  WorkerPool pool(PoolOptions(plan));
  execution.results = pool.Run(jobs, [&](const JobResult& result) {
    const CaseRequest& request = plan.requests[result.index];
    CaseRecord r = RecordFromResult(plan, request, result);
    on_case(request, r, ++done);
    execution.records[result.index] = std::move(r);
  });
  execution.stopped = StopRequested();
  execution.stop_cause = StopSignal() ? SignalName(StopSignal()) : std::string("a stop request");
  return execution;
}

}  // namespace onnxgate
