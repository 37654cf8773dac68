// WorkerPool: fork()ed children, framed results over pipes, poll() with deadlines, stop signals.
#include "harness/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

namespace onnxgate {
namespace {

pid_t (*g_fork)() = ::fork;

// The child's end of the breadcrumb page (null in the parent and in-process mode).
char* g_breadcrumb = nullptr;

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

// Result frame: magic, kind, payload length (native byte order: parent and child are one
// binary on one machine), payload.
constexpr char kMagic[4] = {'O', 'G', 'W', '1'};
constexpr size_t kHeaderSize = 4 + 1 + 8;
constexpr char kKindPayload = 0;
constexpr char kKindException = 1;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void FlushAll() {
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
}

// Runs the job and captures an escaping exception as a message (in-process and child alike).
// `memory_limit_bytes` (0: none) names the limit in the message of an allocation failure.
bool RunJob(const Job& job, std::string* out, size_t memory_limit_bytes = 0) {
  try {
    *out = job();
    return true;
  } catch (const std::bad_alloc& e) {
    *out = std::string(e.what());
    if (memory_limit_bytes > 0) {
      *out +=
          " (ran out of its memory limit of " + std::to_string(memory_limit_bytes >> 20) + " MiB)";
    }
  } catch (const std::exception& e) {
    *out = e.what();
  } catch (...) {
    *out = "an exception that is not a std::exception";
  }
  return false;
}

// The child's side: never returns.
// The limits of WorkerOptions, applied to this (child) process.
void ApplyLimits(const WorkerOptions& options) {
  if (options.memory_limit_bytes > 0) {
    rlimit as{options.memory_limit_bytes, options.memory_limit_bytes};
    setrlimit(RLIMIT_AS, &as);
  }
  if (options.cpu_limit_seconds > 0) {
    const rlim_t soft = static_cast<rlim_t>(std::ceil(options.cpu_limit_seconds));
    rlimit cpu{soft, soft + 1};  // SIGXCPU at the soft limit, SIGKILL a second later
    setrlimit(RLIMIT_CPU, &cpu);
  }
}

[[noreturn]] void ChildMain(const Job& job, int write_fd, pid_t parent,
                            const std::vector<int>& fds_to_close, const WorkerOptions& options,
                            char* breadcrumb) {
  setpgid(0, 0);
  g_breadcrumb = breadcrumb;
#ifdef __linux__
  // A parent killed with SIGKILL cannot clean up; its children must not outlive it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(125);
#endif
  // Crash reports must come from the real signal, not from handlers the parent installed.
  for (int sig : {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE}) {
    signal(sig, SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int fd : fds_to_close) close(fd);
  ApplyLimits(options);

  std::string result;
  char kind = RunJob(job, &result, options.memory_limit_bytes) ? kKindPayload : kKindException;
  char header[kHeaderSize];
  std::memcpy(header, kMagic, 4);
  header[4] = kind;
  uint64_t size = result.size();
  std::memcpy(header + 5, &size, 8);
  // What the job itself printed is in this process's buffers only: flush it before _exit.
  FlushAll();
  bool ok = WriteAll(write_fd, header, kHeaderSize) && WriteAll(write_fd, result.data(), size);
  _exit(ok ? 0 : 124);
}

// A shared anonymous page: written by one child, read by the parent after that child ended.
class BreadcrumbPage {
 public:
  BreadcrumbPage() {
    void* p = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    page_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  BreadcrumbPage(BreadcrumbPage&& o) noexcept : page_(o.page_) { o.page_ = nullptr; }
  BreadcrumbPage& operator=(BreadcrumbPage&& o) noexcept {
    std::swap(page_, o.page_);
    return *this;
  }
  BreadcrumbPage(const BreadcrumbPage&) = delete;
  BreadcrumbPage& operator=(const BreadcrumbPage&) = delete;
  ~BreadcrumbPage() {
    if (page_ != nullptr) munmap(page_, kPageBytes);
  }
  char* data() const { return page_; }
  // What the child last wrote, bounded even if it wrote garbage.
  std::string Text() const {
    if (page_ == nullptr) return "";
    return std::string(page_, strnlen(page_, kMaxBreadcrumb));
  }

 private:
  static constexpr size_t kPageBytes = 4096;
  char* page_ = nullptr;
};

// " while <breadcrumb>" for a message, or nothing.
std::string While(const BreadcrumbPage& page) {
  const std::string text = page.Text();
  return text.empty() ? std::string() : " while " + text;
}

struct Running {
  size_t index = 0;
  int slot = 0;
  pid_t pid = -1;
  BreadcrumbPage breadcrumb;
  int fd = -1;  // read end, non-blocking; -1 once at end of file
  std::string data;
  Clock::time_point start;
  Clock::time_point deadline;
  bool oversized = false;
};

// Reads what is available; returns false at end of file or on an error (the fd is then closed).
bool Drain(Running& r, size_t max_bytes) {
  char buf[65536];
  while (r.fd >= 0) {
    ssize_t n = read(r.fd, buf, sizeof buf);
    if (n > 0) {
      if (r.data.size() + static_cast<size_t>(n) > max_bytes + kHeaderSize) {
        r.oversized = true;
        close(r.fd);
        r.fd = -1;
        return false;
      }
      r.data.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    close(r.fd);  // end of file, or an error that leaves nothing more to read
    r.fd = -1;
    return false;
  }
  return false;
}

void KillGroup(pid_t pid) {
  // The child leads its own group; the group also holds anything it spawned.
  if (kill(-pid, SIGKILL) != 0) kill(pid, SIGKILL);
}

int WaitFor(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Whether the child has ended, without reaping it (so its pid and group stay ours to signal).
bool HasExited(pid_t pid) {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
    if (errno != EINTR) return true;  // not our child any more: nothing left to wait for
  }
  return info.si_pid == pid;
}

void Classify(const Running& r, int status, size_t max_bytes, JobResult* res) {
  if (r.oversized) {  // before the signal: the SIGKILL that ended it was ours
    res->outcome = JobOutcome::kCrash;
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
    res->outcome = JobOutcome::kCrash;
    res->signal = WTERMSIG(status);
    res->message = "killed by " + SignalName(res->signal);
    if (WCOREDUMP(status)) res->message += " (core dumped)";
    return;
  }
  res->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  res->outcome = JobOutcome::kCrash;
  if (res->exit_code != 0) {
    res->message = "exited with code " + std::to_string(res->exit_code);
    return;
  }
  uint64_t size = 0;
  if (r.data.size() >= kHeaderSize) std::memcpy(&size, r.data.data() + 5, 8);
  if (r.data.size() < kHeaderSize || std::memcmp(r.data.data(), kMagic, 4) != 0 ||
      r.data.size() - kHeaderSize != size) {
    res->message =
        "exited without a complete result (" + std::to_string(r.data.size()) + " bytes of output";
    if (r.data.size() >= kHeaderSize)
      res->message += ", expected " + std::to_string(size + kHeaderSize);
    res->message += ")";
    return;
  }
  if (r.data[4] == kKindException) {
    res->message = "threw an exception: " + r.data.substr(kHeaderSize);
    return;
  }
  res->outcome = JobOutcome::kOk;
  res->payload = r.data.substr(kHeaderSize);
}

// Kills every running child (a stop was requested); their jobs stay not run.
void KillAll(std::vector<Running>* running, std::vector<JobResult>* results) {
  for (Running& r : *running) {
    KillGroup(r.pid);
    WaitFor(r.pid);
    if (r.fd >= 0) close(r.fd);
    (*results)[r.index].message = "not run: stopped while running";
  }
  running->clear();
}

// Forks a child for job `index` in the lowest slot no running job holds. False when the pipe or
// the fork failed; the job's message then says which.
bool StartChild(const Job& job, size_t index, const WorkerOptions& options,
                std::vector<Running>* running, JobResult* res) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    res->message = std::string("not run: pipe failed: ") + std::strerror(errno);
    return false;
  }
  std::vector<int> inherited;
  for (const Running& r : *running) {
    if (r.fd >= 0) inherited.push_back(r.fd);
  }
  inherited.push_back(fds[0]);
  pid_t parent = getpid();
  BreadcrumbPage breadcrumb;  // without one (mmap failed) messages just say less
  int slot = 0;
  while (std::any_of(running->begin(), running->end(),
                     [slot](const Running& r) { return r.slot == slot; })) {
    ++slot;
  }
  const Job in_slot = [&job, slot, &options]() {
    if (options.enter_slot) options.enter_slot(slot);
    return job();
  };
  FlushAll();
  pid_t pid = g_fork();
  if (pid == 0) ChildMain(in_slot, fds[1], parent, inherited, options, breadcrumb.data());
  int fork_errno = errno;
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    res->message = std::string("not run: fork failed: ") + std::strerror(fork_errno);
    return false;
  }
  setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  Running r;
  r.index = index;
  r.slot = slot;
  r.pid = pid;
  r.breadcrumb = std::move(breadcrumb);
  r.fd = fds[0];
  r.start = Clock::now();
  r.deadline = Clock::time_point::max();
  if (options.timeout_seconds > 0) {
    r.deadline = r.start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(options.timeout_seconds));
  }
  res->message.clear();
  res->started = true;
  res->slot = slot;
  running->push_back(std::move(r));
  return true;
}

// Waits for output, an end of file or the nearest deadline. The cap keeps the stop flag and
// children that exit while something they spawned still holds the pipe from going unseen.
void WaitForChildren(const std::vector<Running>& running) {
  Clock::time_point now = Clock::now();
  Clock::time_point wake = now + std::chrono::milliseconds(100);
  std::vector<pollfd> pfds;
  for (const Running& r : running) {
    wake = std::min(wake, r.deadline);
    if (r.fd >= 0)
      pfds.push_back({r.fd, POLLIN, 0});
    else
      wake = std::min(wake, now + std::chrono::milliseconds(5));  // about to exit
  }
  int wait_ms = static_cast<int>(std::max<int64_t>(
      0, std::chrono::duration_cast<std::chrono::milliseconds>(wake - now).count() + 1));
  if (poll(pfds.data(), pfds.size(), wait_ms) < 0 && errno != EINTR) {
    // Only EFAULT/EINVAL/ENOMEM are possible; sleep the interval rather than spin.
    usleep(static_cast<useconds_t>(wait_ms) * 1000);
  }
}

// Reads what the child wrote; true once its job has ended (exited, oversized or past its
// deadline), with the job's outcome in `res`.
bool CheckChild(Running& r, const WorkerOptions& options, JobResult* res) {
  const size_t limit = options.max_payload_bytes;
  Drain(r, limit);
  if (r.oversized || HasExited(r.pid)) {
    KillGroup(r.pid);  // grandchildren, or an oversized writer
    Drain(r, limit);   // what the child wrote before it ended is all in the pipe
    Classify(r, WaitFor(r.pid), limit, res);
    if (res->outcome != JobOutcome::kOk) res->message += While(r.breadcrumb);
    return true;
  }
  if (Clock::now() < r.deadline) return false;
  KillGroup(r.pid);
  WaitFor(r.pid);
  res->outcome = JobOutcome::kTimeout;
  res->message = "timed out after " + FormatSeconds(Seconds(Clock::now() - r.start)) + " (limit " +
                 FormatSeconds(options.timeout_seconds) + ")" + While(r.breadcrumb);
  res->signal = SIGKILL;
  return true;
}

}  // namespace

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

void worker_testing::SetForkFunction(pid_t (*fork_function)()) {
  g_fork = fork_function != nullptr ? fork_function : ::fork;
}

void SetWorkerBreadcrumb(const std::string& what) {
  if (g_breadcrumb == nullptr) return;
  const size_t n = std::min(what.size(), kMaxBreadcrumb);
  std::memcpy(g_breadcrumb, what.data(), n);
  g_breadcrumb[n] = '\0';
}
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
  return options_.isolate ? RunIsolated(jobs, on_done) : RunInProcess(jobs, on_done);
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
    if (RunJob(job, &out)) {
      res.outcome = JobOutcome::kOk;
      res.payload = std::move(out);
      res.message.clear();
    } else {
      res.outcome = JobOutcome::kCrash;
      res.message = "threw an exception: " + out;
    }
    res.seconds = Seconds(Clock::now() - start);
    if (on_done) on_done(res);
  }
  return results;
}

std::vector<JobResult> WorkerPool::RunIsolated(const std::vector<Job>& jobs,
                                               const JobCallback& on_done) {
  std::vector<JobResult> results(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    results[i].index = i;
    results[i].message = "not run";
  }
  std::vector<Running> running;
  size_t next = 0;
  while (true) {
    if (StopRequested()) {
      KillAll(&running, &results);
      break;
    }
    // Start jobs up to the parallelism. A job whose pipe or fork failed is retried once a child
    // has finished and released its descriptors; with no child running it stays not run.
    while (running.size() < static_cast<size_t>(options_.parallelism) && next < jobs.size()) {
      if (!StartChild(jobs[next], next, options_, &running, &results[next]) && !running.empty()) {
        break;
      }
      ++next;
    }
    if (running.empty()) break;
    WaitForChildren(running);
    for (size_t i = 0; i < running.size();) {
      Running& r = running[i];
      JobResult& res = results[r.index];
      if (!CheckChild(r, options_, &res)) {
        ++i;
        continue;
      }
      res.seconds = Seconds(Clock::now() - r.start);
      if (r.fd >= 0) close(r.fd);
      r.fd = -1;
      if (on_done) on_done(res);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return results;
}

}  // namespace onnxgate
