// Process isolation for running cases: each job runs in a fork()ed child whose crash or endless
// loop becomes that job's CRASH or TIMEOUT while the run goes on.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace onnxgate {

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
  int signal = 0;        // the signal that ended the child, 0 if none
  int exit_code = -1;    // the child's exit code when it exited normally (0 for kOk); else -1
  double seconds = 0;    // wall-clock time from start to the end of the job
  bool started = false;  // the job began (its child was forked, or it was called in-process)
  int slot = -1;         // the worker slot it ran in (0 .. parallelism-1); -1 if it never started
};

// A job computes a serialized result. In isolation mode it runs in a fork()ed child, which
// inherits the job and everything it refers to in memory: nothing about the job is encoded on
// the way in. Only its result crosses back, as bytes whose format is the caller's (run and gate
// use harness/case_result_codec.h) and which the caller must decode as untrusted: a child can die
// or scribble over its memory half-way through making them. A job may use anything it likes;
// its side effects on memory stay in the child.
using Job = std::function<std::string()>;
// Called in the parent, in completion order, once per job that ended OK, CRASH or TIMEOUT (not
// for jobs left kNotRun by a stop).
using JobCallback = std::function<void(const JobResult&)>;

struct WorkerOptions {
  int parallelism = 1;         // children at once (at least 1)
  double timeout_seconds = 0;  // wall-clock limit per job; 0 means none
  bool isolate = true;         // false: run jobs in this process, one after another
  size_t max_payload_bytes = size_t{256} << 20;  // a larger result is treated as a crash
  // Per child (isolation mode only), set with setrlimit before the job runs; 0 means none.
  // Address space (RLIMIT_AS): an allocation past it fails in the child (std::bad_alloc, a
  // CRASH saying the limit was hit) instead of the kernel's OOM killer picking a process.
  size_t memory_limit_bytes = 0;
  // CPU time (RLIMIT_CPU, whole seconds, rounded up): a child past it gets SIGXCPU and is
  // TIMEOUT, even when the parent's wall clock is not watching (the parent stopped, say).
  double cpu_limit_seconds = 0;
  // Worker slots: at most `parallelism` jobs run at once, each in a slot (0 .. parallelism-1)
  // that no other running job holds. Called, when set, in the child before its job (in the
  // caller, in in-process mode), so that a job can use what the parent prepared for its slot
  // (an adapter process of its own, say). JobResult::slot says which slot a job had.
  std::function<void(int slot)> enter_slot;
};

// Runs jobs in worker processes.
//
// Isolation mode: stdout, stderr and C++ streams are flushed before every fork so the child
// cannot write the parent's buffered output a second time; the child runs the job in its own
// process group with default signal dispositions, writes its result to a pipe in a frame (magic,
// kind, length: it delimits the job's bytes, whose meaning stays the caller's) and ends with
// _exit (no atexit handlers, no static destructors). The parent reads all pipes while children
// run (results may exceed the pipe buffer), waits in poll() no longer than the nearest deadline,
// kills a timed-out child's whole process group with SIGKILL and reaps every child. Fork from a
// single-threaded parent: a child of a multi-threaded process inherits locks held by the others.
//
// Limits: the child sets its own RLIMIT_AS and RLIMIT_CPU before the job runs, so a job that
// allocates without bound or spins is that job's CRASH ("ran out of its memory limit") or
// TIMEOUT ("exceeded its CPU-time limit"); nothing else on the machine is put at risk. RLIMIT_AS
// counts address space, not resident memory: it includes what the child inherited from the
// parent at fork, so the limit must leave room for the parent's own size.
//
// In-process mode (for debuggers, --no-isolation): the same interface, jobs run one after
// another in the caller; exceptions become CRASH, but a real crash takes the whole process down
// and timeouts are not enforced.
//
// Stops: Run checks StopRequested() (set by ScopedStopSignals on SIGINT/SIGTERM) and then starts
// nothing more, kills the running children and returns; unfinished jobs stay kNotRun.
class WorkerPool {
 public:
  explicit WorkerPool(WorkerOptions options);

  // Results in job order; `on_done` (optional) sees each one as it completes.
  std::vector<JobResult> Run(const std::vector<Job>& jobs, const JobCallback& on_done = {});

 private:
  std::vector<JobResult> RunIsolated(const std::vector<Job>& jobs, const JobCallback& on_done);
  std::vector<JobResult> RunInProcess(const std::vector<Job>& jobs, const JobCallback& on_done);

  WorkerOptions options_;
};

// What a job is doing now, for the message of a job that dies: a child killed by a signal or
// a timeout cannot say where it was, so the job states it first ("reading golden x.h5") and the
// parent appends it to the CRASH or TIMEOUT message ("killed by SIGSEGV while reading golden
// x.h5"). In isolation mode it is written to a page the parent shares with that child (mapped
// before fork, at most kMaxBreadcrumb bytes kept); elsewhere it does nothing. Cheap: a copy.
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
