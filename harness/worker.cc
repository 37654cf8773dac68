// WorkerPool: isolation modes, the in-process mode, and the stop flag with its signals.
#include "harness/worker.h"

#include <signal.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "harness/worker_process.h"
#include "harness/worker_slots.h"

namespace onnxgate {
namespace {

using Clock = std::chrono::steady_clock;

volatile sig_atomic_t g_stop = 0;
volatile sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignal(int sig) {
  if (g_stop) {
    // Second signal: the user means it. Die the way the signal would have killed us.
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  g_stop_signal = sig;
  g_stop = 1;
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

const char* IsolationName(Isolation isolation) {
  switch (isolation) {
    case Isolation::kWorker: return "worker";
    case Isolation::kCase: return "case";
    case Isolation::kNone: return "none";
  }
  return "?";
}

bool IsolationFromName(const std::string& name, Isolation* isolation) {
  for (Isolation i : {Isolation::kWorker, Isolation::kCase, Isolation::kNone}) {
    if (name == IsolationName(i)) {
      *isolation = i;
      return true;
    }
  }
  return false;
}

const char* JobOutcomeName(JobOutcome outcome) {
  switch (outcome) {
    case JobOutcome::kOk: return "OK";
    case JobOutcome::kCrash: return "CRASH";
    case JobOutcome::kTimeout: return "TIMEOUT";
    case JobOutcome::kNotRun: return "NOT_RUN";
  }
  return "?";
}

std::string SignalName(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  if (abbrev == nullptr) return "signal " + std::to_string(signal);
  return std::string("SIG") + abbrev;
}

void RequestStop() { g_stop = 1; }
bool StopRequested() { return g_stop != 0; }

int StopSignal() { return g_stop_signal; }
void ClearStopRequest() {
  g_stop = 0;
  g_stop_signal = 0;
}

ScopedStopSignals::ScopedStopSignals() {
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR and the loop sees the flag
  sigaction(SIGINT, &sa, &old_int_);
  sigaction(SIGTERM, &sa, &old_term_);
}

ScopedStopSignals::~ScopedStopSignals() {
  sigaction(SIGINT, &old_int_, nullptr);
  sigaction(SIGTERM, &old_term_, nullptr);
}

WorkerPool::WorkerPool(WorkerOptions options) : options_(options) {
  options_.parallelism = std::max(1, options_.parallelism);
}

std::vector<JobResult> WorkerPool::Run(const std::vector<Job>& jobs, const JobCallback& on_done) {
  if (options_.isolation == Isolation::kNone) return RunInProcess(jobs, on_done);
  return RunInWorkers(jobs, options_, on_done);
}

std::vector<JobResult> WorkerPool::RunInProcess(const std::vector<Job>& jobs,
                                                const JobCallback& on_done) {
  std::vector<JobResult> results(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    results[i].index = i;
    results[i].message = "not run";
  }
  for (size_t i = 0; i < jobs.size() && !StopRequested(); ++i) {
    JobResult& res = results[i];
    res.started = true;
    res.slot = 0;
    Clock::time_point start = Clock::now();
    std::string out;
    const Job job = [&]() {
      if (options_.enter_slot) options_.enter_slot(0);
      return jobs[i]();
    };
    if (RunJobCatching(job, &out, 0) == ResultKind::kPayload) {
      res.outcome = JobOutcome::kOk;
      res.payload = std::move(out);
      res.message.clear();
    } else {
      res.outcome = JobOutcome::kCrash;
      res.message = "threw an exception: " + out;
    }
    res.seconds = Seconds(Clock::now() - start);
    if (options_.leave_slot) (void)options_.leave_slot(0, res.outcome == JobOutcome::kOk);
    if (on_done) on_done(res);
  }
  return results;
}

}  // namespace onnxgate
