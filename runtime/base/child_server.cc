// ChildServer: a child forked on demand that reads length-framed requests from one pipe and
// writes kind-and-length-framed replies to another; the parent writes and reads with poll()
// against a deadline, and kills and reaps the child on any failure.
#include "runtime/base/child_server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/base/byte_frame.h"

namespace onnxgate {

namespace {

using Clock = std::chrono::steady_clock;

constexpr char kAnswerKind = 'R';
constexpr char kThrewKind = 'X';
constexpr size_t kSizeBytes = 8;                      // a U64
constexpr size_t kReplyHeaderBytes = 1 + kSizeBytes;  // kind, size
// The child's exit codes besides the handler's: a request it could not read whole, a reply it
// could not write whole; a parent that was gone before the child could watch it.
constexpr int kBrokenPipeExitCode = 3;
constexpr int kOrphanExitCode = 125;
// How often a wait looks whether the child ended, in case another process holds its pipe and
// keeps the end of file from coming.
constexpr int kLivenessCheckMs = 100;

// ---- The child's side ----

// Reads `n` bytes (blocking) into `out`; false at an end of file or error before `n`, with what
// came in `out`.
bool ReadFully(int fd, size_t n, std::string* out) {
  out->resize(n);
  size_t done = 0;
  while (done < n) {
    const ssize_t r = read(fd, out->data() + done, n - done);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      out->resize(done);
      return false;
    }
    done += static_cast<size_t>(r);
  }
  return true;
}

bool WriteFully(int fd, std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
}

void CloseRange(unsigned lo, unsigned hi) {
  if (close_range(lo, hi, 0) == 0) return;
  // Kernels before 5.9 lack close_range: close one by one up to the descriptor limit.
  const long limit = sysconf(_SC_OPEN_MAX);
  for (long fd = lo; fd <= static_cast<long>(hi) && fd < limit; ++fd) close(static_cast<int>(fd));
}

// Closes every descriptor but those in `keep`.
void CloseAllBut(std::vector<int> keep) {
  std::sort(keep.begin(), keep.end());
  unsigned from = 0;
  for (int fd : keep) {
    if (fd < 0) continue;
    const unsigned kept = static_cast<unsigned>(fd);
    if (kept > from) CloseRange(from, kept - 1);
    from = std::max(from, kept + 1);
  }
  CloseRange(from, ~0U);
}

// Runs the handler on one request; the reply's kind and bytes.
std::pair<char, std::string> Answer(const ChildServer::Handler& handler,
                                    const std::string& request) {
  try {
    return {kAnswerKind, handler(request)};
  } catch (const std::exception& e) {
    return {kThrewKind, e.what()};
  } catch (...) {
    return {kThrewKind, "an exception that is not a std::exception"};
  }
}

[[noreturn]] void Serve(const ChildServer::Handler& handler, int request_fd, int reply_fd) {
  for (;;) {
    std::string size_bytes;
    // An end of file between requests is the parent saying there are no more.
    if (!ReadFully(request_fd, kSizeBytes, &size_bytes)) {
      _exit(size_bytes.empty() ? 0 : kBrokenPipeExitCode);
    }
    uint64_t size = 0;
    ByteReader(size_bytes).U64(&size);
    std::string request;
    if (!ReadFully(request_fd, size, &request)) _exit(kBrokenPipeExitCode);
    const auto [kind, reply] = Answer(handler, request);
    ByteWriter header;
    header.Raw(std::string_view(&kind, 1));
    header.U64(reply.size());
    if (!WriteFully(reply_fd, header.Take()) || !WriteFully(reply_fd, reply)) {
      _exit(kBrokenPipeExitCode);
    }
    if (kind == kThrewKind) _exit(ChildServer::kHandlerThrewExitCode);
  }
}

[[noreturn]] void ChildMain(const ChildServer::Handler& handler, int request_fd, int reply_fd,
                            pid_t parent) {
  // A parent killed with SIGKILL cannot clean up; its child must not outlive it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(kOrphanExitCode);
  // A crash must end the child with its own signal, not run handlers the parent installed.
  sigset_t crash_signals;
  sigemptyset(&crash_signals);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE}) {
    signal(sig, SIG_DFL);
    sigaddset(&crash_signals, sig);
  }
  sigprocmask(SIG_UNBLOCK, &crash_signals, nullptr);
  CloseAllBut({STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, request_fd, reply_fd});
  Serve(handler, request_fd, reply_fd);
}

// ---- The parent's side ----

// Blocks SIGPIPE for this thread while it lives, so that writing to a pipe whose reader is gone
// fails with EPIPE instead of ending the process. A SIGPIPE raised meanwhile is taken back
// before the old mask returns; one that was pending before is left alone.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_only_);
    sigaddset(&pipe_only_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only_, &old_mask_);
    was_pending_ = IsPending();
  }
  ~SigpipeBlock() {
    if (!was_pending_ && IsPending()) {
      const timespec zero{0, 0};
      while (sigtimedwait(&pipe_only_, nullptr, &zero) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  static bool IsPending() {
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    return sigismember(&pending, SIGPIPE) == 1;
  }

  sigset_t pipe_only_;
  sigset_t old_mask_;
  bool was_pending_ = false;
};

// Whether `pid` has ended (without reaping it). A child someone else reaped counts as ended.
bool HasEnded(pid_t pid) {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return errno == ECHILD;
  }
  return info.si_pid == pid;
}

enum class Transfer { kDone, kEnded, kTimedOut };

// Waits until `fd` is ready for `events`, the child `pid` ended, or the deadline passed.
Transfer WaitFor(int fd, short events, Clock::time_point deadline, pid_t pid) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Transfer::kTimedOut;
    pollfd p{fd, events, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, kLivenessCheckMs)));
    if (ready > 0) return Transfer::kDone;  // ready, or hung up: the read or write says which
    if (ready < 0 || !HasEnded(pid)) continue;
    // It ended: take one more look for what it wrote before it did.
    pollfd last{fd, events, 0};
    return poll(&last, 1, 0) > 0 ? Transfer::kDone : Transfer::kEnded;
  }
}

// Writes `bytes` to the non-blocking `fd`. kEnded: the reader is gone (EPIPE) or the child ended.
Transfer SendBytes(int fd, std::string_view bytes, Clock::time_point deadline, pid_t pid) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = write(fd, bytes.data() + done, bytes.size() - done);
    if (w > 0) {
      done += static_cast<size_t>(w);
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno != EAGAIN) return Transfer::kEnded;
    const Transfer waited = WaitFor(fd, POLLOUT, deadline, pid);
    if (waited != Transfer::kDone) return waited;
  }
  return Transfer::kDone;
}

// Appends the next `n` bytes of the non-blocking `fd` to `out`. kEnded: an end of file, a read
// error, or the child ended, before `n`.
Transfer ReceiveBytes(int fd, uint64_t n, std::string* out, Clock::time_point deadline, pid_t pid) {
  char buffer[65536];
  uint64_t got = 0;
  while (got < n) {
    const ssize_t r =
        read(fd, buffer, static_cast<size_t>(std::min<uint64_t>(sizeof buffer, n - got)));
    if (r > 0) {
      out->append(buffer, static_cast<size_t>(r));
      got += static_cast<uint64_t>(r);
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r == 0 || errno != EAGAIN) return Transfer::kEnded;
    const Transfer waited = WaitFor(fd, POLLIN, deadline, pid);
    if (waited != Transfer::kDone) return waited;
  }
  return Transfer::kDone;
}

std::string NoReplyWithin(int timeout_seconds) {
  return "the server did not reply within " + std::to_string(timeout_seconds) + " s";
}

// What came of a reply that ended early.
std::string PartialReply(const std::string& header, const std::string& payload, uint64_t size) {
  if (header.empty()) return "the server ended without replying";
  if (header.size() < kReplyHeaderBytes) {
    return "the server sent " + std::to_string(header.size()) + " of the " +
           std::to_string(kReplyHeaderBytes) + " bytes of a reply header";
  }
  return "the server sent " + std::to_string(kReplyHeaderBytes + payload.size()) + " of " +
         std::to_string(kReplyHeaderBytes + size) + " bytes of its reply";
}

void SetNonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

ChildServer::ChildServer(Handler handler) : handler_(std::move(handler)) {}

ChildServer::~ChildServer() {
  if (pid_ >= 0 && owner_ == getpid()) {
    ChildOutcome ignored;
    Finish(/*kill_first=*/true, &ignored);
  } else {
    Forget();
  }
}

pid_t ChildServer::pid() const { return owner_ == getpid() ? pid_ : -1; }

ChildOutcome ChildServer::Call(const std::string& request, int timeout_seconds) {
  const Deadline deadline = Clock::now() + std::chrono::seconds(timeout_seconds);
  if (pid_ >= 0 && owner_ != getpid()) Forget();  // inherited through fork: not ours to end
  ChildOutcome outcome;
  for (;;) {
    const bool fresh = pid_ < 0;
    if (fresh) {
      outcome.error = Start();
      if (!outcome.error.empty()) return outcome;
    }
    if (Send(request, deadline, timeout_seconds, &outcome)) break;
    // A child that served before and ended between Calls never saw this request: send it
    // again to a fresh one. A fresh one that ended already is this request's answer.
    if (fresh || outcome.end == ChildOutcome::End::kTimedOut) return outcome;
    outcome = ChildOutcome();
  }
  Receive(deadline, timeout_seconds, &outcome);
  return outcome;
}

std::string ChildServer::Start() {
  int request[2];
  int reply[2];
  if (pipe2(request, O_CLOEXEC) != 0) return std::string("pipe failed: ") + std::strerror(errno);
  if (pipe2(reply, O_CLOEXEC) != 0) {
    const int e = errno;
    close(request[0]);
    close(request[1]);
    return std::string("pipe failed: ") + std::strerror(e);
  }
  const pid_t parent = getpid();
  std::fflush(nullptr);  // output still buffered here must not be written again by the child
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {request[0], request[1], reply[0], reply[1]}) close(fd);
    return std::string("fork failed: ") + std::strerror(e);
  }
  if (pid == 0) ChildMain(handler_, request[0], reply[1], parent);
  close(request[0]);
  close(reply[1]);
  SetNonBlocking(request[1]);
  SetNonBlocking(reply[0]);
  pid_ = pid;
  owner_ = parent;
  request_fd_ = request[1];
  reply_fd_ = reply[0];
  return "";
}

bool ChildServer::Send(const std::string& request, Deadline deadline, int timeout_seconds,
                       ChildOutcome* outcome) {
  ByteWriter size;
  size.U64(request.size());
  Transfer sent;
  {
    SigpipeBlock no_sigpipe;
    sent = SendBytes(request_fd_, size.Take(), deadline, pid_);
    if (sent == Transfer::kDone) sent = SendBytes(request_fd_, request, deadline, pid_);
  }
  if (sent == Transfer::kDone) return true;
  Finish(/*kill_first=*/true, outcome);
  if (sent == Transfer::kTimedOut) {
    outcome->end = ChildOutcome::End::kTimedOut;
    outcome->signal = 0;
    outcome->error = NoReplyWithin(timeout_seconds);
  } else {
    outcome->error = "the server ended before it read the request";
  }
  return false;
}

void ChildServer::Receive(Deadline deadline, int timeout_seconds, ChildOutcome* outcome) {
  std::string header;
  std::string payload;
  uint64_t size = 0;
  Transfer got = ReceiveBytes(reply_fd_, kReplyHeaderBytes, &header, deadline, pid_);
  const char kind = header.empty() ? '\0' : header[0];
  if (got == Transfer::kDone) {
    if (kind != kAnswerKind && kind != kThrewKind) {
      Finish(/*kill_first=*/true, outcome);
      char shown[8];
      std::snprintf(shown, sizeof shown, "0x%02x", static_cast<unsigned char>(kind));
      outcome->error = std::string("the server sent a reply of unknown kind ") + shown;
      return;
    }
    ByteReader(std::string_view(header).substr(1)).U64(&size);
    got = ReceiveBytes(reply_fd_, size, &payload, deadline, pid_);
  }
  if (got == Transfer::kTimedOut) {
    Finish(/*kill_first=*/true, outcome);
    outcome->end = ChildOutcome::End::kTimedOut;
    outcome->signal = 0;
    outcome->error = NoReplyWithin(timeout_seconds);
  } else if (got == Transfer::kEnded) {
    Finish(/*kill_first=*/true, outcome);
    outcome->error = PartialReply(header, payload, size);
  } else if (kind == kThrewKind) {
    Finish(/*kill_first=*/false, outcome);  // it exits right after this reply
    outcome->error = "the handler threw: " + payload;
  } else {
    outcome->end = ChildOutcome::End::kExited;
    outcome->exit_code = 0;
    outcome->output = std::move(payload);
  }
}

void ChildServer::Forget() {
  if (request_fd_ >= 0) close(request_fd_);
  if (reply_fd_ >= 0) close(reply_fd_);
  request_fd_ = -1;
  reply_fd_ = -1;
  pid_ = -1;
  owner_ = -1;
}

void ChildServer::Finish(bool kill_first, ChildOutcome* outcome) {
  const pid_t pid = pid_;
  Forget();
  // Killing is safe until it is reaped: the pid cannot belong to another process before then.
  if (kill_first) kill(pid, SIGKILL);
  int status = 0;
  pid_t reaped;
  while ((reaped = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (reaped < 0) {
    outcome->end = ChildOutcome::End::kExited;
    outcome->exit_code = -1;  // someone else reaped it: how it ended is not known here
  } else if (WIFSIGNALED(status)) {
    outcome->end = ChildOutcome::End::kSignaled;
    outcome->signal = WTERMSIG(status);
  } else {
    outcome->end = ChildOutcome::End::kExited;
    outcome->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
}

}  // namespace onnxgate
