// The parent's side of isolated mode (harness/worker.h): at most `parallelism` worker processes,
// one per slot, each forked when its slot needs one and serving jobs until it is retired.
//
// Lifecycle of a worker:
//   1. Forked from the pool's parent (which has warmed everything a job needs) when its slot has
//      a job and no live worker; it enters its slot and waits for a job index
//      (harness/worker_process.h).
//   2. Serves jobs, one at a time, each under the job's wall-clock deadline; the parent reads its
//      result pipe while it runs.
//   3. Is retired (its process group killed with SIGKILL and reaped) when: its job crashed, timed
//      out, ran out of memory or sent something that is not its result frame; it has served
//      WorkerOptions::cases_per_worker jobs; its resident memory has grown past
//      WorkerOptions::recycle_resident_growth_bytes; the job it ran needs a process of its own
//      (WorkerOptions::needs_own_process, or --isolation case for every job); it does anything
//      while idle (writes, closes its pipe, exits); a stop was requested; or the jobs ran out.
// The next job of a slot whose worker was retired gets a fresh worker, forked after the
// callback of the job that ended the last one has run (so a runtime can repair what a slot
// shares, such as an adapter process, before the next fork).
#pragma once

#include <vector>

#include "harness/worker.h"

namespace onnxgate {

std::vector<JobResult> RunInWorkers(const std::vector<Job>& jobs, const WorkerOptions& options,
                                    const JobCallback& on_done);

}  // namespace onnxgate
