// Starting, talking to and ending one adapter process.
#include "runtime/adapter/adapter_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace onnxgate {

namespace {

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(status));
    return std::string("killed by ") +
           (abbrev != nullptr ? std::string("SIG") + abbrev
                              : "signal " + std::to_string(WTERMSIG(status)));
  }
  return "ended";
}

}  // namespace

StatusOr<std::unique_ptr<AdapterProcess>> AdapterProcess::Start(
    const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) return InvalidArgument("an empty adapter command");
  int in[2], out[2], exec_error[2];
  if (pipe2(in, O_CLOEXEC) != 0) return Unavailable(std::string("pipe: ") + strerror(errno));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return Unavailable(std::string("pipe: ") + strerror(errno));
  }
  if (pipe2(exec_error, O_CLOEXEC) != 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    return Unavailable(std::string("pipe: ") + strerror(errno));
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    execvp(args[0], args.data());
    const int e = errno;
    ssize_t ignored = write(exec_error[1], &e, sizeof(e));
    (void)ignored;
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(exec_error[1]);
  if (pid < 0) {
    const int e = errno;
    close(in[1]);
    close(out[0]);
    close(exec_error[0]);
    return Unavailable(std::string("fork: ") + strerror(e));
  }
  setpgid(pid, pid);
  int e = 0;
  const ssize_t got = read(exec_error[0], &e, sizeof(e));  // EOF once exec succeeded
  close(exec_error[0]);
  if (got == static_cast<ssize_t>(sizeof(e))) {
    waitpid(pid, nullptr, 0);
    close(in[1]);
    close(out[0]);
    return NotFound("cannot run '" + argv[0] + "': " + strerror(e));
  }
  std::unique_ptr<AdapterProcess> p(new AdapterProcess());
  p->pid_ = pid;
  p->owner_ = getpid();
  p->to_adapter_ = in[1];
  p->from_adapter_ = out[0];
  return p;
}

AdapterProcess::~AdapterProcess() {
  Kill();
  if (to_adapter_ >= 0) close(to_adapter_);
  if (from_adapter_ >= 0) close(from_adapter_);
}

StatusOr<Frame> AdapterProcess::Call(const Frame& request,
                                     std::chrono::steady_clock::time_point deadline) {
  if (ended_) return Unavailable("the adapter " + end_);
  if (Status st = WriteAll(to_adapter_, EncodeFrame(request)); !st.ok()) {
    Kill();
    return st;
  }
  auto reply = ReadFrame(from_adapter_, deadline);
  if (!reply.ok()) Kill();  // out of step with the stream: it cannot be used again
  return reply;
}

void AdapterProcess::Kill() {
  if (pid_ <= 0) return;
  if (!ended_ || getpid() == owner_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
  }
  if (getpid() == owner_) {
    int status = 0;
    if (waitpid(pid_, &status, 0) == pid_ && end_.empty()) end_ = DescribeWaitStatus(status);
  } else {
    WaitForHangUp();
  }
  if (end_.empty()) end_ = "ended";
  ended_ = true;
  pid_ = -1;
}

void AdapterProcess::WaitForHangUp() {
  if (from_adapter_ < 0) return;
  char discard[4096];
  for (int waited_ms = 0; waited_ms < kHangUpWaitMs; waited_ms += 10) {
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
    kill(-pid_, SIGKILL);  // anything it left behind in its group
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
