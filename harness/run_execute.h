// The execute stage of `run` and `gate`: the plan's case requests in worker processes
// (harness/worker.h), at most -j at once, each worker serving many (--isolation worker, except
// for a runtime whose NeedsCaseIsolation() is true) or one (--isolation case). A worker forked
// after the plan was made inherits every request and runs the case whose index it is sent
// (harness/case_runner.h); the record comes back through the case result codec
// (harness/case_result_codec.h). A worker that crashes, hangs or sends back bytes that are not a
// result makes its case's CRASH or TIMEOUT record here; the run goes on.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "harness/run_plan.h"
#include "harness/worker.h"
#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// "onnxgate gate: N case(s) x EP from M suite(s), J worker(s)": the line a run opens with.
void PrintRunHeader(const RunPlan& plan);

// Builds, before the first fork, what every worker would otherwise build again per case (ONNX's
// schema registry and the operator list for coverage, into plan->operators; HDF5's and
// OpenSSL's library state; each EP's kernel registry), gives the heap's free pages back, and
// prepares each runtime's worker slots. Errors (a runtime's slots) name the runtime.
Status PrepareWorkers(RunPlan* plan);

struct Execution {
  // By request: the record of every request that ran (its raw outcome, with the runtime's label
  // in a side-by-side run and the reproducer), after the callback saw it.
  std::vector<CaseRecord> records;
  std::vector<JobResult> results;  // by request
  bool stopped = false;            // a stop (SIGINT, SIGTERM, RequestStop) ended the pool
  std::string stop_cause;          // "SIGTERM", or "a stop request"
};

// Sees each record in completion order (before it is stored), with how many have completed.
using CaseCallback =
    std::function<void(const CaseRequest& request, CaseRecord& record, size_t done)>;

// Runs every request of the plan; requests a stop left unrun keep JobOutcome::kNotRun.
Execution ExecuteRun(const RunPlan& plan, const CaseCallback& on_case);

// The record of a request from its worker's end: the decoded result, or a CRASH or TIMEOUT
// record saying what happened to the worker (an unreadable result is CRASH, naming why); an
// error result is UNRESOLVED with its message. A result that did not pass after an allocation
// past the memory limit failed in its worker (the runtime caught it) is CRASH naming the limit.
// Labels it and adds its reproducer.
CaseRecord RecordFromResult(const RunPlan& plan, const CaseRequest& request,
                            const JobResult& result);

// A record for a request that has no result of its own: its case's names, `verdict`, and
// "worker " + the job's message; labelled, with its reproducer.
CaseRecord RecordWithoutResult(const RunPlan& plan, const CaseRequest& request,
                               const JobResult& result, Verdict verdict);

// The reproducer line of a request (ReproducerCommand).
std::string RequestReproducer(const RunPlan& plan, const CaseRequest& request);

}  // namespace onnxgate
