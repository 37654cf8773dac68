// Process isolation for running cases: jobs run in worker processes forked from the caller, and
// a job whose worker crashes, hangs or runs out of memory gets CRASH or TIMEOUT while the run goes
// on. A worker is long-lived (it serves job after job, harness/worker_slots.h) or, for jobs that
// need it, a process of the job's own.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace onnxgate {

// Where jobs run (--isolation).
enum class Isolation {
  kWorker,  // long-lived worker processes, each serving many jobs (the default)
  kCase,    // a fresh worker process per job
  kNone,    // this process, one job after another (for debuggers: no containment)
};
// "worker", "case", "none".
const char* IsolationName(Isolation isolation);
// False for any other name.
bool IsolationFromName(const std::string& name, Isolation* isolation);

enum class JobOutcome {
  kOk,       // the job returned; its payload is in JobResult::payload
  kCrash,    // killed by a signal, exited non-zero, threw, or ended without a complete payload
  kTimeout,  // ran past its wall-clock limit; its process group was killed
  kNotRun,   // never started or killed unfinished because a stop was requested (or fork failed)
};
// "OK", "CRASH", "TIMEOUT", "NOT_RUN".
const char* JobOutcomeName(JobOutcome outcome);

struct JobResult {
  size_t index = 0;  // the job's position in the list given to Run
  JobOutcome outcome = JobOutcome::kNotRun;
  std::string payload;  // kOk: what the job returned
  // Otherwise what happened: "killed by SIGSEGV", "exited with code 3", "timed out after 2.0 s",
  // "threw an exception: ...", "exited without a complete result (5 of 13 bytes)", "not run".
  std::string message;
  int signal = 0;        // the signal that ended the worker, 0 if none
  int exit_code = -1;    // the worker's exit code when it exited (0 for kOk); else -1
  double seconds = 0;    // wall-clock time from start to the end of the job
  bool started = false;  // the job began (sent to its worker, or called in-process)
  int slot = -1;         // the worker slot it ran in (0 .. parallelism-1); -1 if it never started
  // kOk only: an allocation failed during the job (past the memory limit) and the job caught it
  // and returned anyway; its worker was retired.
  bool ran_out_of_memory = false;
};

// A job computes a serialized result. In isolated modes it runs in a worker forked after the job
// list was made, which inherits every job and everything they refer to in memory: only a job's
// index is sent on the way in. Only its result crosses back, as bytes whose format is the
// caller's (run and gate use harness/case_result_codec.h) and which the caller must decode as
// untrusted: a worker can die or scribble over its memory half-way through making them. A job
// may use anything it likes. Its side effects on memory stay in its worker, where the worker's
// later jobs see them (Isolation::kCase gives each job a worker of its own); the process state a
// job changes (environment, working directory, signal mask, floating-point modes, ...) is put
// back before the worker's next job (harness/process_state.h).
using Job = std::function<std::string()>;
// Called in the parent, in completion order, once per job that ended OK, CRASH or TIMEOUT (not
// for jobs left kNotRun by a stop).
using JobCallback = std::function<void(const JobResult&)>;

struct WorkerOptions {
  int parallelism = 1;         // workers at once (at least 1)
  double timeout_seconds = 0;  // wall-clock limit per job; 0 means none
  Isolation isolation = Isolation::kWorker;
  size_t max_payload_bytes = size_t{256} << 20;  // a larger result is treated as a crash
  // Per worker (isolated modes only), set with setrlimit before each job; 0 means none.
  // Address space (RLIMIT_AS): an allocation past it fails in the worker (std::bad_alloc, a
  // CRASH saying the limit was hit, and the worker is replaced) instead of the kernel's OOM
  // killer picking a process.
  size_t memory_limit_bytes = 0;
  // CPU time per job (RLIMIT_CPU set to the worker's CPU time so far plus this, rounded up to
  // whole seconds): a job past it gets SIGXCPU and is TIMEOUT, even when the parent's wall clock
  // is not watching (the parent stopped, say).
  double cpu_limit_seconds = 0;
  // Worker mode: a worker is replaced after serving this many jobs (0: never for that reason),
  // and after a job that left its resident memory grown by more than this many bytes since it
  // started (0: never for that reason), so that what a runtime leaks cannot pile up.
  size_t cases_per_worker = 500;
  size_t recycle_resident_growth_bytes = size_t{1} << 30;
  // Jobs for which this says true run in a worker of their own (as every job does with
  // Isolation::kCase): one that has served no other job and is retired after it.
  std::function<bool(size_t index)> needs_own_process;
  // Worker slots: at most `parallelism` jobs run at once, each in a slot (0 .. parallelism-1)
  // that no other running job holds. `enter_slot` is called, when set, in each worker as it
  // starts (in the caller before each job, in in-process mode), so that its jobs can use what
  // the parent prepared for the slot (an adapter process of its own, say). `leave_slot` is
  // called in the caller after each job has ended (`clean`: it returned its payload), before the
  // callback; it returns true when the slot's shared helper was replaced, so that the worker
  // that entered the old one must be replaced too. JobResult::slot says which slot a job had.
  std::function<void(int slot)> enter_slot;
  std::function<bool(int slot, bool clean)> leave_slot;
};

// Runs jobs in worker processes.
//
// Isolated modes (worker, case): see harness/worker_slots.h for a worker's lifecycle and
// harness/worker_process.h for what it does between jobs. stdout, stderr and C++ streams are
// flushed before every fork and after every job, so nothing is printed twice or lost; a worker
// runs in its own process group with default signal dispositions and ends with _exit (no atexit
// handlers, no static destructors). The parent waits in poll() no longer than the nearest
// deadline, kills a timed-out worker's whole process group with SIGKILL and reaps every worker.
// Fork from a single-threaded parent: a child of a multi-threaded process inherits locks held by
// the others.
//
// Limits: each worker sets its own RLIMIT_AS and RLIMIT_CPU before each job, so a job that
// allocates without bound or spins is that job's CRASH ("ran out of its memory limit") or
// TIMEOUT ("exceeded its CPU-time limit"); nothing else on the machine is put at risk. RLIMIT_AS
// counts address space, not resident memory: it includes what the worker inherited from the
// parent at fork, so the limit must leave room for the parent's own size.
//
// In-process mode (for debuggers, --isolation none): the same interface, jobs run one after
// another in the caller; exceptions become CRASH, but a real crash takes the whole process down
// and timeouts are not enforced.
//
// Stops: Run checks StopRequested() (set by ScopedStopSignals on SIGINT/SIGTERM) and then starts
// nothing more, kills every worker and returns; unfinished jobs stay kNotRun.
class WorkerPool {
 public:
  explicit WorkerPool(WorkerOptions options);

  // Results in job order; `on_done` (optional) sees each one as it completes.
  std::vector<JobResult> Run(const std::vector<Job>& jobs, const JobCallback& on_done = {});

 private:
  std::vector<JobResult> RunInProcess(const std::vector<Job>& jobs, const JobCallback& on_done);

  WorkerOptions options_;
};

// What a job is doing now, for the message of a job that dies: a worker killed by a signal or
// a timeout cannot say where it was, so the job states it first ("reading golden x.h5") and the
// parent appends it to the CRASH or TIMEOUT message ("killed by SIGSEGV while reading golden
// x.h5"). In a worker it is written to a page the parent shares with that worker (mapped before
// the fork, at most kMaxBreadcrumb bytes kept, cleared before each job); elsewhere it does
// nothing. Cheap: a copy.
inline constexpr size_t kMaxBreadcrumb = 480;
void SetWorkerBreadcrumb(const std::string& what);

namespace worker_testing {
// Replaces fork() for every WorkerPool (nullptr restores it), so tests can make a fork fail as
// it does at a process limit (root is exempt from RLIMIT_NPROC). Not for use outside tests.
void SetForkFunction(pid_t (*fork_function)());
}  // namespace worker_testing

// The process-wide stop flag. Async-signal-safe to set.
void RequestStop();
bool StopRequested();
// The signal that requested the stop, or 0 (requested by a call, or none).
int StopSignal();
void ClearStopRequest();

// While alive, SIGINT and SIGTERM set the stop flag instead of killing the process; a second such
// signal while a stop is pending ends the process the default way, so an impatient user still
// gets out. The destructor restores the previous handlers.
class ScopedStopSignals {
 public:
  ScopedStopSignals();
  ~ScopedStopSignals();
  ScopedStopSignals(const ScopedStopSignals&) = delete;
  ScopedStopSignals& operator=(const ScopedStopSignals&) = delete;

 private:
  struct sigaction old_int_ = {};
  struct sigaction old_term_ = {};
};

// "SIGSEGV", "SIGKILL", ...; "signal 42" for one without a name.
std::string SignalName(int signal);

}  // namespace onnxgate
