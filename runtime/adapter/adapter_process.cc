// Starting, talking to and ending one adapter process, and the launcher that outlives none of
// what the adapter starts.
#include "runtime/adapter/adapter_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <ctime>
#include <new>

namespace onnxgate {

namespace {

constexpr int kStderrPipeBytes = 1 << 20;

// Milliseconds from now to `deadline` for poll: 0 once it has passed, at most a minute (the
// caller's loop waits again).
int WaitMs(std::chrono::steady_clock::time_point deadline) {
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 60000));
}

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(status));
    return std::string("killed by ") + (abbrev != nullptr
                                            ? std::string("SIG") + abbrev
                                            : "signal " + std::to_string(WTERMSIG(status)));
  }
  return "ended";
}

// ---- The launcher. It runs in a child forked from a process that may have other threads, and
// never execs: everything below uses only async-signal-safe calls and no allocation.

volatile sig_atomic_t launcher_stop = 0;

void OnLauncherSignal(int sig) {
  if (sig != SIGCHLD) launcher_stop = 1;
}

struct LinuxDirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// The parent pid in the text of /proc/<pid>/stat ("pid (comm) S ppid ..."), or -1.
pid_t ParentInStat(const char* text, ssize_t n) {
  ssize_t close_paren = -1;
  for (ssize_t i = 0; i < n; ++i) {
    if (text[i] == ')') close_paren = i;
  }
  ssize_t i = close_paren + 4;  // past ") S "
  if (close_paren < 0 || i >= n) return -1;
  pid_t ppid = 0;
  bool any = false;
  for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i, any = true) {
    ppid = ppid * 10 + (text[i] - '0');
  }
  return any ? ppid : -1;
}

// SIGKILLs every child of this process, found by a scan of /proc.
void KillChildren() {
  const int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) return;
  const pid_t self = getpid();
  alignas(8) char entries[8192];
  for (;;) {
    const long n = syscall(SYS_getdents64, proc, entries, sizeof entries);
    if (n <= 0) break;
    for (long off = 0; off < n;) {
      const auto* entry = reinterpret_cast<const LinuxDirent64*>(entries + off);
      off += entry->d_reclen;
      pid_t pid = 0;
      const char* name = entry->d_name;
      if (*name == '\0') continue;
      for (; *name >= '0' && *name <= '9'; ++name) pid = pid * 10 + (*name - '0');
      if (*name != '\0' || pid <= 0) continue;
      char path[64] = "/proc/";
      int len = 6;
      for (const char* c = entry->d_name; *c != '\0' && len < 50; ++c) path[len++] = *c;
      for (const char* c = "/stat"; *c != '\0'; ++c) path[len++] = *c;
      path[len] = '\0';
      const int fd = open(path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char stat[512];
      const ssize_t got = read(fd, stat, sizeof stat);
      close(fd);
      if (got > 0 && ParentInStat(stat, got) == self) kill(pid, SIGKILL);
    }
  }
  close(proc);
}

// Kills the adapter's group, then every child this subreaper has (orphaned descendants are
// reparented to it as their parents die), and reaps them, until it has no child left or
// kEndDescendantsMs have passed (without /proc it cannot find them; it never waits forever).
// Sets *status when it reaps the adapter: one that was already exiting keeps its exit code.
constexpr int kEndDescendantsMs = 5000;

void EndDescendants(pid_t adapter, bool* ended, int* status) {
  kill(-adapter, SIGKILL);
  for (int waited_us = 0; waited_us < kEndDescendantsMs * 1000;) {
    KillChildren();
    int st = 0;
    pid_t p;
    while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
      if (p == adapter && !*ended) {
        *ended = true;
        *status = st;
      }
    }
    if (p < 0 && errno == ECHILD) return;
    const int pause_us = waited_us < 10000 ? 200 : 5000;
    const timespec pause{0, pause_us * 1000L};
    nanosleep(&pause, nullptr);
    waited_us += pause_us;
  }
}

void CloseAllBut(int keep) {
  const unsigned int last = ~0U;
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3, keep - 1, 0) == 0 &&
      syscall(SYS_close_range, keep + 1, last, 0) == 0) {
    return;
  }
#endif
  (void)last;
  for (int fd = 3; fd < 65536; ++fd) {
    if (fd != keep) close(fd);
  }
}

// Ends this process the way the adapter ended: its exit code, or its signal (without a core).
[[noreturn]] void EndLike(bool adapter_ended, int status) {
  if (adapter_ended && WIFEXITED(status)) _exit(WEXITSTATUS(status));
  const int sig = adapter_ended && WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  signal(sig, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, sig);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  kill(getpid(), sig);
  _exit(128 + sig);
}

// The launcher's life: start the adapter, wait for it to end, for SIGTERM or for the lifeline to
// close, then end everything and exit like the adapter.
[[noreturn]] void RunLauncher(char* const* args, int in_read, int out_write, int err_write,
                              int exec_error, int lifeline) {
  setpgid(0, 0);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction sa = {};
  sa.sa_handler = OnLauncherSignal;
  sigemptyset(&sa.sa_mask);
  sigset_t handled;
  sigemptyset(&handled);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) {
    sigaction(sig, &sa, nullptr);
    sigaddset(&handled, sig);
  }
  sigprocmask(SIG_BLOCK, &handled, nullptr);
  const pid_t adapter = fork();
  if (adapter == 0) {
    for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE}) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    setpgid(0, 0);
    dup2(in_read, STDIN_FILENO);
    dup2(out_write, STDOUT_FILENO);
    dup2(err_write, STDERR_FILENO);
    execvp(args[0], args);
    const int e = errno;
    ssize_t ignored = write(exec_error, &e, sizeof(e));
    (void)ignored;
    _exit(127);
  }
  if (adapter < 0) {
    const int e = errno;
    ssize_t ignored = write(exec_error, &e, sizeof(e));
    (void)ignored;
    _exit(127);
  }
  setpgid(adapter, adapter);
  // The launcher keeps none of onnxgate's streams: a pipe onnxgate writes to ends with it.
  const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0 && lifeline > STDOUT_FILENO) {
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
  }
  CloseAllBut(lifeline);
  sigset_t wait_mask;
  sigemptyset(&wait_mask);
  bool ended = false;
  int status = 0;
  while (!ended && !launcher_stop) {
    pollfd pfd{lifeline, POLLIN, 0};
    if (ppoll(&pfd, 1, nullptr, &wait_mask) > 0 && pfd.revents != 0) break;  // onnxgate is gone
    int st = 0;
    for (pid_t p; (p = waitpid(-1, &st, WNOHANG)) > 0;) {
      if (p == adapter) {
        ended = true;
        status = st;
      }
    }
  }
  EndDescendants(adapter, &ended, &status);
  EndLike(ended, status);
}

void CloseAll(std::initializer_list<int> fds) {
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
}

}  // namespace

StatusOr<std::unique_ptr<AdapterProcess>> AdapterProcess::Start(
    const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return InvalidArgument("an empty adapter command");
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, exec_error[2] = {-1, -1},
      lifeline[2] = {-1, -1};
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 ||
      pipe2(exec_error, O_CLOEXEC) != 0 || pipe2(lifeline, O_CLOEXEC) != 0) {
    const int e = errno;
    CloseAll({in[0], in[1], out[0], out[1], err[0], err[1], exec_error[0], exec_error[1],
              lifeline[0], lifeline[1]});
    return Unavailable(std::string("pipe: ") + strerror(e));
  }
  // Read without waiting (DrainStderr); a larger buffer where the system allows one, so that a
  // burst of log lines written in the middle of a reply frame does not stall the adapter.
  fcntl(err[0], F_SETFL, fcntl(err[0], F_GETFL) | O_NONBLOCK);
  fcntl(err[0], F_SETPIPE_SZ, kStderrPipeBytes);
  void* shared = mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    const int e = errno;
    CloseAll({in[0], in[1], out[0], out[1], err[0], err[1], exec_error[0], exec_error[1],
              lifeline[0], lifeline[1]});
    return Unavailable(std::string("mmap: ") + strerror(e));
  }
  std::unique_ptr<AdapterProcess> p(new AdapterProcess());
  p->next_id_ = new (shared) std::atomic<uint64_t>(1);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) RunLauncher(args.data(), in[0], out[1], err[1], exec_error[1], lifeline[0]);
  CloseAll({in[0], out[1], err[1], exec_error[1], lifeline[0]});
  p->to_adapter_ = in[1];
  p->from_adapter_ = out[0];
  p->adapter_stderr_ = err[0];
  p->lifeline_ = lifeline[1];
  if (pid < 0) {
    const int e = errno;
    close(exec_error[0]);
    return Unavailable(std::string("fork: ") + strerror(e));
  }
  setpgid(pid, pid);
  p->pid_ = pid;
  p->owner_ = getpid();
#ifdef SYS_pidfd_open
  p->exit_fd_ = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#endif
  int e = 0;
  const ssize_t got = read(exec_error[0], &e, sizeof(e));  // EOF once exec succeeded
  close(exec_error[0]);
  if (got == static_cast<ssize_t>(sizeof(e))) {
    p->Kill();
    return NotFound("cannot run '" + argv[0] + "': " + strerror(e));
  }
  return p;
}

AdapterProcess::~AdapterProcess() {
  Kill();
  CloseAll({to_adapter_, from_adapter_, adapter_stderr_, lifeline_, exit_fd_});
  if (next_id_ != nullptr) munmap(next_id_, sizeof(*next_id_));
}

StatusOr<Frame> AdapterProcess::Call(const Frame& request,
                                     std::chrono::steady_clock::time_point deadline,
                                     ReplyId id_rule) {
  if (ended_) return Unavailable("the adapter " + end_);
  const uint64_t id = next_id_->fetch_add(1);
  Frame sent = request;
  sent.header["id"] = id;
  ONNXGATE_ASSIGN_OR_RETURN(std::string bytes, EncodeFrame(sent));
  if (Status st = SendDraining(bytes, deadline); !st.ok()) {
    Kill();
    return st;
  }
  for (;;) {
    AwaitReply(deadline);
    auto reply = ReadFrame(from_adapter_, deadline, exit_fd_);
    DrainStderr();
    if (!reply.ok()) {
      Kill();  // out of step with the stream: it cannot be used again
      return reply.status();
    }
    auto it = reply->header.find("id");
    if (it == reply->header.end() && id_rule == ReplyId::kMayBeMissing) return reply;
    if (it != reply->header.end() && it->is_number_unsigned()) {
      const uint64_t got = it->get<uint64_t>();
      if (got == id) return reply;
      if (got < id) continue;  // a late reply to an earlier request: not this one's
    }
    Kill();
    return DataLoss("the reply carries " +
                    (it == reply->header.end() ? std::string("no 'id'")
                                               : "the id " + QuoteBytes(it->dump(), 40)) +
                    " where the request's id " + std::to_string(id) + " was expected");
  }
}

void AdapterProcess::Kill() {
  if (pid_ <= 0) return;
  if (!ended_ || getpid() == owner_) kill(pid_, SIGTERM);  // the launcher ends everything
  if (getpid() == owner_) {
    if (!LauncherExited(kEndWaitMs)) kill(pid_, SIGKILL);
    int status = 0;
    if (waitpid(pid_, &status, 0) == pid_ && end_.empty()) end_ = DescribeWaitStatus(status);
  } else {
    WaitForHangUp();
  }
  if (end_.empty()) end_ = "ended";
  ended_ = true;
  pid_ = -1;
  DrainStderr();  // its last words
}

void AdapterProcess::DrainStderr() {
  if (adapter_stderr_ < 0) return;
  char buffer[16384];
  for (;;) {
    const ssize_t n = read(adapter_stderr_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {  // every writer is gone: nothing more will come
      close(adapter_stderr_);
      adapter_stderr_ = -1;
    }
    if (n <= 0) return;
    for (ssize_t written = 0; written < n;) {
      const ssize_t w = write(STDERR_FILENO, buffer + written, static_cast<size_t>(n - written));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;  // a console that cannot take it loses it; the run goes on
      written += w;
    }
  }
}

void AdapterProcess::AwaitReply(std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    DrainStderr();
    if (adapter_stderr_ < 0) return;
    pollfd fds[3] = {
        {from_adapter_, POLLIN, 0}, {adapter_stderr_, POLLIN, 0}, {exit_fd_, POLLIN, 0}};
    const nfds_t count = exit_fd_ >= 0 ? 3 : 2;
    const int wait_ms = WaitMs(deadline);
    if (wait_ms == 0) return;
    if (poll(fds, count, wait_ms) < 0 && errno != EINTR) return;
    if (fds[0].revents != 0 || (count == 3 && fds[2].revents != 0)) return;
  }
}

Status AdapterProcess::SendDraining(const std::string& bytes,
                                    std::chrono::steady_clock::time_point deadline) {
  if (adapter_stderr_ < 0) return WriteAll(to_adapter_, bytes);
  // A pipe that polls writable takes kPipeChunk bytes without blocking.
  constexpr size_t kPipeChunk = PIPE_BUF;
  for (size_t sent = 0; sent < bytes.size();) {
    DrainStderr();
    pollfd fds[2] = {{to_adapter_, POLLOUT, 0}, {adapter_stderr_, POLLIN, 0}};
    const int wait_ms = WaitMs(deadline);
    if (wait_ms == 0) return Unavailable("the adapter did not take its request in time");
    if (poll(fds, adapter_stderr_ >= 0 ? 2 : 1, wait_ms) < 0 && errno != EINTR) {
      return Unavailable(std::string("poll: ") + strerror(errno));
    }
    if (fds[0].revents == 0) continue;
    const size_t n = std::min(kPipeChunk, bytes.size() - sent);
    ONNXGATE_RETURN_IF_ERROR(WriteAll(to_adapter_, bytes.substr(sent, n)));
    sent += n;
  }
  return OkStatus();
}

bool AdapterProcess::LauncherExited(int wait_ms) {
  if (exit_fd_ >= 0) {
    pollfd pfd{exit_fd_, POLLIN, 0};
    for (;;) {
      const int r = poll(&pfd, 1, wait_ms);
      if (r >= 0 || errno != EINTR) return r > 0;
    }
  }
  for (int waited = 0; waited < wait_ms; waited += 2) {
    siginfo_t info = {};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid_) {
      return true;
    }
    usleep(2000);
  }
  return false;
}

void AdapterProcess::WaitForHangUp() {
  if (from_adapter_ < 0) return;
  char discard[4096];
  for (int waited_ms = 0; waited_ms < kEndWaitMs; waited_ms += 10) {
    pollfd pfd{from_adapter_, POLLIN, 0};
    if (poll(&pfd, 1, 10) < 0 && errno != EINTR) return;
    if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) return;
    // Unread output keeps the pipe readable before the hang-up shows: drop it.
    if ((pfd.revents & POLLIN) && read(from_adapter_, discard, sizeof discard) == 0) return;
  }
}

bool AdapterProcess::Usable() {
  if (Ended()) return false;
  pollfd pfd{from_adapter_, POLLIN, 0};
  return poll(&pfd, 1, 0) == 0;  // no data, no hang-up, no error
}

bool AdapterProcess::Ended() {
  if (ended_) return true;
  if (getpid() != owner_) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    end_ = DescribeWaitStatus(status);
    ended_ = true;
    pid_ = -1;
  }
  return ended_;
}

std::string AdapterProcess::EndDescription() {
  if (!ended_ && getpid() == owner_) {
    // Give a process that just closed its output a moment to finish exiting.
    for (int i = 0; i < 50 && !Ended(); ++i) usleep(2000);
  }
  return ended_ ? end_ : "closed its output";
}

}  // namespace onnxgate
