// RunInWorkers: slots of long-lived worker processes, job indices down a pipe, result frames
// back, poll() with deadlines, and retirement of any worker whose state is in doubt.
#include "harness/worker_slots.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "harness/worker_process.h"

namespace onnxgate {
namespace {

using Clock = std::chrono::steady_clock;

pid_t (*g_fork)() = ::fork;

// How long a busy worker whose result pipe closed may take to exit on its own before it is taken
// to have closed the pipe and kept running.
constexpr auto kExitGrace = std::chrono::seconds(1);

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

// A shared anonymous page: written by one worker, read by the parent after that worker ended.
class BreadcrumbPage {
 public:
  BreadcrumbPage() {
    void* p = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    page_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  BreadcrumbPage(const BreadcrumbPage&) = delete;
  BreadcrumbPage& operator=(const BreadcrumbPage&) = delete;
  ~BreadcrumbPage() {
    if (page_ != nullptr) munmap(page_, kPageBytes);
  }
  char* data() const { return page_; }
  void Clear() {
    if (page_ != nullptr) page_[0] = '\0';
  }
  // " while <what the worker last wrote>", bounded even if it wrote garbage; or nothing.
  std::string While() const {
    if (page_ == nullptr) return "";
    const std::string text(page_, strnlen(page_, kMaxBreadcrumb));
    return text.empty() ? text : " while " + text;
  }

 private:
  static constexpr size_t kPageBytes = 4096;
  char* page_ = nullptr;
};

struct Worker {
  pid_t pid = -1;  // -1: the slot has no worker
  int request_fd = -1;
  int result_fd = -1;  // non-blocking; -1 once at end of file
  BreadcrumbPage breadcrumb;
  size_t served = 0;    // jobs sent to it
  bool retire = false;  // end it once its current job has ended
  // The job in flight.
  bool busy = false;
  size_t index = 0;
  std::string data;
  bool oversized = false;
  Clock::time_point start;
  Clock::time_point deadline;
  Clock::time_point closed_at;  // when its result pipe closed while busy
  bool closed = false;
};

bool Alive(const Worker& w) { return w.pid > 0; }

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// Reads what is available; at end of file or on an error the descriptor is closed.
void Drain(Worker& w, size_t max_bytes) {
  char buf[65536];
  while (w.result_fd >= 0) {
    const ssize_t n = read(w.result_fd, buf, sizeof buf);
    if (n > 0) {
      if (w.data.size() + static_cast<size_t>(n) > max_bytes + kResultHeaderBytes) {
        w.oversized = true;
        CloseFd(&w.result_fd);
        return;
      }
      w.data.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    CloseFd(&w.result_fd);
  }
}

int WaitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Whether the worker has ended, without reaping it (so its pid and group stay ours to signal).
bool HasExited(pid_t pid) {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
    if (errno != EINTR) return true;  // not our child any more: nothing left to wait for
  }
  return info.si_pid == pid;
}

// Kills the worker's process group (it leads its own; the group holds anything it spawned),
// keeps what it wrote before it died, reaps it and frees the slot. Returns its wait status.
int EndWorker(Worker& w, size_t max_bytes) {
  if (!Alive(w)) return 0;
  if (kill(-w.pid, SIGKILL) != 0) kill(w.pid, SIGKILL);
  Drain(w, max_bytes);
  const int status = WaitFor(w.pid);
  CloseFd(&w.request_fd);
  CloseFd(&w.result_fd);
  w.pid = -1;
  w.served = 0;
  w.retire = false;
  w.busy = false;
  return status;
}

// The outcome of a job whose worker ended (status: its wait status) without a whole frame.
void ClassifyEnded(const Worker& w, int status, size_t max_bytes, JobResult* res) {
  res->outcome = JobOutcome::kCrash;
  if (w.oversized) {  // before the signal: the SIGKILL that ended it was ours
    res->message = "result larger than the limit of " + std::to_string(max_bytes) + " bytes";
    return;
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
    res->outcome = JobOutcome::kTimeout;
    res->signal = SIGXCPU;
    res->message = "exceeded its CPU-time limit (killed by SIGXCPU)";
    return;
  }
  if (WIFSIGNALED(status)) {
    res->signal = WTERMSIG(status);
    res->message = "killed by " + SignalName(res->signal);
    if (WCOREDUMP(status)) res->message += " (core dumped)";
    return;
  }
  res->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (res->exit_code != 0) {
    res->message = "exited with code " + std::to_string(res->exit_code);
    return;
  }
  res->message =
      "exited without a complete result (" + std::to_string(w.data.size()) + " bytes of output";
  ResultHeader header;
  if (DecodeResultHeader(w.data, &header)) {
    res->message += ", expected " + std::to_string(header.size + kResultHeaderBytes);
  }
  res->message += ")";
}

// Judges the bytes of the job in flight: true once they decide its outcome (a whole frame, or
// bytes that cannot become one), which is then in `res`; marks the worker for retirement when
// its state is in doubt.
bool TakeFrame(Worker& w, const WorkerOptions& options, JobResult* res) {
  if (w.data.size() < kResultHeaderBytes && CouldStartAResultFrame(w.data)) return false;
  ResultHeader header;
  const bool framed = DecodeResultHeader(w.data, &header);
  const bool fits = framed && header.size <= options.max_payload_bytes;
  const size_t whole = fits ? kResultHeaderBytes + header.size : 0;
  if (fits && w.data.size() < whole) return false;  // more to come
  res->outcome = JobOutcome::kCrash;
  w.retire = true;
  if (!framed) {
    res->message = "sent " + std::to_string(w.data.size()) + " bytes that are not a result frame";
  } else if (!fits) {
    res->message =
        "result larger than the limit of " + std::to_string(options.max_payload_bytes) + " bytes";
  } else if (header.index != w.index) {
    res->message = "sent a result for job " + std::to_string(header.index) + " instead of job " +
                   std::to_string(w.index);
  } else if (w.data.size() > whole) {
    res->message = "sent " + std::to_string(w.data.size() - whole) + " bytes after its result";
  } else if (header.kind == ResultKind::kException || header.kind == ResultKind::kOutOfMemory) {
    res->message = "threw an exception: " + w.data.substr(kResultHeaderBytes);
  } else {
    res->outcome = JobOutcome::kOk;
    res->exit_code = 0;
    res->payload = w.data.substr(kResultHeaderBytes);
    res->message.clear();
    res->ran_out_of_memory = header.kind == ResultKind::kPayloadAfterOutOfMemory;
    w.retire = res->ran_out_of_memory ||
               (options.cases_per_worker > 0 && w.served >= options.cases_per_worker) ||
               (options.recycle_resident_growth_bytes > 0 &&
                header.resident_growth > options.recycle_resident_growth_bytes);
  }
  return true;
}

// Checks the job in flight: true once it has ended, with its outcome in `res`.
bool CheckBusy(Worker& w, const WorkerOptions& options, JobResult* res) {
  const size_t limit = options.max_payload_bytes;
  Drain(w, limit);
  if (!w.oversized && TakeFrame(w, options, res)) return true;
  if (w.oversized || HasExited(w.pid)) {
    const int status = EndWorker(w, limit);
    if (!w.oversized && TakeFrame(w, options, res)) return true;
    ClassifyEnded(w, status, limit, res);
    res->message += w.breadcrumb.While();
    return true;
  }
  const Clock::time_point now = Clock::now();
  if (w.result_fd < 0 && !w.closed) {
    w.closed = true;
    w.closed_at = now;
  }
  if (w.closed && now - w.closed_at >= kExitGrace) {
    EndWorker(w, limit);
    res->outcome = JobOutcome::kCrash;
    res->message = "closed its result pipe without a complete result (" +
                   std::to_string(w.data.size()) + " bytes) and kept running" +
                   w.breadcrumb.While();
    return true;
  }
  if (now < w.deadline) return false;
  EndWorker(w, limit);
  res->outcome = JobOutcome::kTimeout;
  res->message = "timed out after " + FormatSeconds(Seconds(now - w.start)) + " (limit " +
                 FormatSeconds(options.timeout_seconds) + ")" + w.breadcrumb.While();
  res->signal = SIGKILL;
  return true;
}

// An idle worker must do nothing: one that writes, closes its pipe or exits is ended.
void CheckIdle(Worker& w, const WorkerOptions& options) {
  if (!Alive(w)) return;
  w.data.clear();
  Drain(w, options.max_payload_bytes);
  if (!w.data.empty() || w.result_fd < 0 || w.oversized || HasExited(w.pid)) {
    EndWorker(w, options.max_payload_bytes);
  }
}

// Forks the worker of slot `s`. False when a pipe or the fork failed, with `error` saying which.
bool StartWorker(std::vector<Worker>& slots, int s, const std::vector<Job>& jobs,
                 const WorkerOptions& options, std::string* error) {
  int request[2];
  int result[2];
  if (pipe2(request, O_CLOEXEC) != 0) {
    *error = std::string("pipe failed: ") + std::strerror(errno);
    return false;
  }
  if (pipe2(result, O_CLOEXEC) != 0) {
    *error = std::string("pipe failed: ") + std::strerror(errno);
    close(request[0]);
    close(request[1]);
    return false;
  }
  Worker& w = slots[static_cast<size_t>(s)];
  WorkerSetup setup;
  setup.jobs = &jobs;
  setup.options = &options;
  setup.slot = s;
  setup.request_fd = request[0];
  setup.result_fd = result[1];
  setup.parent = getpid();
  setup.breadcrumb = w.breadcrumb.data();
  setup.fds_to_close = {request[1], result[0]};
  for (const Worker& other : slots) {
    for (int fd : {other.request_fd, other.result_fd}) {
      if (fd >= 0) setup.fds_to_close.push_back(fd);
    }
  }
  w.breadcrumb.Clear();
  FlushAllStreams();
  const pid_t pid = g_fork();
  if (pid == 0) WorkerMain(setup);
  const int fork_errno = errno;
  close(request[0]);
  close(result[1]);
  if (pid < 0) {
    close(request[1]);
    close(result[0]);
    *error = std::string("fork failed: ") + std::strerror(fork_errno);
    return false;
  }
  setpgid(pid, pid);  // also done by the worker; whichever runs first wins the race
  fcntl(result[0], F_SETFL, fcntl(result[0], F_GETFL) | O_NONBLOCK);
  w.pid = pid;
  w.request_fd = request[1];
  w.result_fd = result[0];
  return true;
}

// Sends job `index` to the worker; false when the worker cannot take it (it died while idle).
bool Send(Worker& w, size_t index, const WorkerOptions& options) {
  const uint64_t value = index;
  if (write(w.request_fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) {
    return false;
  }
  ++w.served;
  w.busy = true;
  w.index = index;
  w.data.clear();
  w.oversized = false;
  w.closed = false;
  w.start = Clock::now();
  w.deadline = Clock::time_point::max();
  if (options.timeout_seconds > 0) {
    w.deadline = w.start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(options.timeout_seconds));
  }
  return true;
}

bool NeedsOwnProcess(const WorkerOptions& options, size_t index) {
  return options.isolation == Isolation::kCase ||
         (options.needs_own_process && options.needs_own_process(index));
}

// Waits for output, an end of file or the nearest deadline. The cap keeps the stop flag and
// workers that exit while something they spawned still holds the pipe from going unseen.
void WaitForWorkers(const std::vector<Worker>& slots) {
  const Clock::time_point now = Clock::now();
  Clock::time_point wake = now + std::chrono::milliseconds(100);
  std::vector<pollfd> pfds;
  for (const Worker& w : slots) {
    if (!Alive(w)) continue;
    if (w.busy) wake = std::min(wake, w.deadline);
    if (w.result_fd >= 0) {
      pfds.push_back({w.result_fd, POLLIN, 0});
    } else if (w.busy) {
      wake = std::min(wake, now + std::chrono::milliseconds(5));  // about to exit
    }
  }
  const int wait_ms = static_cast<int>(std::max<int64_t>(
      0, std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count() + 1));
  if (poll(pfds.data(), pfds.size(), wait_ms) < 0 && errno != EINTR) {
    usleep(static_cast<useconds_t>(wait_ms) * 1000);  // EFAULT/EINVAL/ENOMEM: do not spin
  }
}

// While alive, writing to a worker that died cannot kill this process with SIGPIPE.
class ScopedIgnoreSigpipe {
 public:
  ScopedIgnoreSigpipe() {
    struct sigaction ignore = {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &old_);
  }
  ~ScopedIgnoreSigpipe() { sigaction(SIGPIPE, &old_, nullptr); }

 private:
  struct sigaction old_ = {};
};

class Pool {
 public:
  Pool(const std::vector<Job>& jobs, const WorkerOptions& options, const JobCallback& on_done)
      : jobs_(jobs), options_(options), on_done_(on_done), slots_(options.parallelism) {
    results_.resize(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) {
      results_[i].index = i;
      results_[i].message = "not run";
    }
  }

  std::vector<JobResult> Run() {
    while (!StopRequested()) {
      AssignJobs();
      if (std::none_of(slots_.begin(), slots_.end(), [](const Worker& w) { return w.busy; })) {
        break;
      }
      WaitForWorkers(slots_);
      CheckWorkers();
    }
    for (Worker& w : slots_) {
      if (w.busy) results_[w.index].message = "not run: stopped while running";
      EndWorker(w, options_.max_payload_bytes);
    }
    return std::move(results_);
  }

 private:
  // Gives every idle slot the next job, starting or replacing its worker as needed. A job whose
  // worker could not be started waits for a slot to free descriptors; with no worker busy it
  // stays not run, saying why.
  void AssignJobs() {
    for (int s = 0; s < static_cast<int>(slots_.size()) && next_ < jobs_.size(); ++s) {
      Worker& w = slots_[static_cast<size_t>(s)];
      if (w.busy) continue;
      const bool own = NeedsOwnProcess(options_, next_);
      if (Alive(w) && (w.retire || (own && w.served > 0))) EndWorker(w, options_.max_payload_bytes);
      std::string error;
      if (!Alive(w) && !StartWorker(slots_, s, jobs_, options_, &error)) {
        if (AnyBusy()) return;
        results_[next_++].message = "not run: " + error;
        --s;
        continue;
      }
      if (!Send(w, next_, options_)) {  // it died while idle: replace it, keep the job
        EndWorker(w, options_.max_payload_bytes);
        --s;
        continue;
      }
      w.retire = own;
      JobResult& res = results_[next_++];
      res.started = true;
      res.slot = s;
      res.message.clear();
    }
  }

  void CheckWorkers() {
    for (size_t s = 0; s < slots_.size(); ++s) {
      Worker& w = slots_[s];
      if (!w.busy) {
        CheckIdle(w, options_);
        continue;
      }
      JobResult& res = results_[w.index];
      const bool retire_after = w.retire;  // the job needed a process of its own
      if (!CheckBusy(w, options_, &res)) continue;
      w.retire = w.retire || retire_after || res.outcome != JobOutcome::kOk;
      w.busy = false;
      res.seconds = Seconds(Clock::now() - w.start);
      if (w.retire) EndWorker(w, options_.max_payload_bytes);
      if (options_.leave_slot && options_.leave_slot(res.slot, res.outcome == JobOutcome::kOk)) {
        EndWorker(w, options_.max_payload_bytes);
      }
      if (on_done_) on_done_(res);
    }
  }

  bool AnyBusy() const {
    return std::any_of(slots_.begin(), slots_.end(), [](const Worker& w) { return w.busy; });
  }

  const std::vector<Job>& jobs_;
  const WorkerOptions& options_;
  const JobCallback& on_done_;
  std::vector<Worker> slots_;
  std::vector<JobResult> results_;
  size_t next_ = 0;
};

}  // namespace

void worker_testing::SetForkFunction(pid_t (*fork_function)()) {
  g_fork = fork_function != nullptr ? fork_function : ::fork;
}

std::vector<JobResult> RunInWorkers(const std::vector<Job>& jobs, const WorkerOptions& options,
                                    const JobCallback& on_done) {
  ScopedIgnoreSigpipe no_sigpipe;
  return Pool(jobs, options, on_done).Run();
}

}  // namespace onnxgate
