// RunInChildProcess: run a piece of work in a short-lived forked child, with a deadline, and
// get back the bytes it produced. For work that may crash or hang inside a third-party library
// (libonnx's shape inference, an OpenCL driver's device probe) without taking the caller down.
//
// Contract, and the hazards it answers:
//   - fork() copies only the calling thread. `body` runs in the child and must not wait for a
//     lock another thread of the parent may have held at the fork (malloc's own locks are safe
//     with glibc). Keep it to the one library call it isolates and serialising the answer.
//   - The child ends with _exit: no atexit handlers, no static destructors, no stdio flush, so
//     it never runs the parent's cleanup (a library's exit handler, a half-written buffer).
//   - The answer travels through a pipe (O_CLOEXEC) that the parent drains while waiting, so an
//     answer larger than the pipe's buffer cannot block the child.
//   - Past the deadline the child is killed (SIGKILL) and always reaped: no zombie is left.
//   - The child's crash is reported as the signal that ended it, never as an answer.
#pragma once

#include <functional>
#include <string>

namespace onnxgate {

struct ChildOutcome {
  enum class End {
    kNotStarted,  // pipe or fork failed: `error` says which and why
    kExited,      // the child exited: `exit_code` (0 after a complete answer)
    kSignaled,    // the child was killed by `signal` (a crash)
    kTimedOut,    // the deadline passed; the child was killed
  };
  End end = End::kNotStarted;
  int exit_code = -1;
  int signal = 0;
  std::string output;  // what `body` returned, complete only when end is kExited and exit_code 0
  std::string error;
};

// Forks; the child runs `body` and writes what it returns to the parent, then exits with 0 (3
// when the write fails). The parent waits at most `timeout_seconds`.
ChildOutcome RunInChildProcess(const std::function<std::string()>& body, int timeout_seconds);

}  // namespace onnxgate
