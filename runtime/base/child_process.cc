// RunInChildProcess: fork, a pipe drained with poll until a deadline, SIGKILL past it, waitpid.
#include "runtime/base/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace onnxgate {

namespace {

[[noreturn]] void ChildMain(const std::function<std::string()>& body, int fd) {
  const std::string answer = body();
  size_t done = 0;
  while (done < answer.size()) {
    const ssize_t n = write(fd, answer.data() + done, answer.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    done += static_cast<size_t>(n);
  }
  _exit(0);
}

}  // namespace

ChildOutcome RunInChildProcess(const std::function<std::string()>& body, int timeout_seconds) {
  ChildOutcome outcome;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    outcome.error = std::string("pipe failed: ") + std::strerror(errno);
    return outcome;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    outcome.error = std::string("fork failed: ") + std::strerror(e);
    return outcome;
  }
  if (pid == 0) {
    close(fds[0]);
    ChildMain(body, fds[1]);
  }
  close(fds[1]);
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buffer[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;  // EINTR or the deadline
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    outcome.output.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    outcome.end = ChildOutcome::End::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    outcome.end = ChildOutcome::End::kSignaled;
    outcome.signal = WTERMSIG(status);
  } else {
    outcome.end = ChildOutcome::End::kExited;
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return outcome;
}

}  // namespace onnxgate
