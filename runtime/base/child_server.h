// ChildServer: one long-lived forked child that answers many requests, each with a deadline.
// For a third-party library call made again and again (libonnx's shape inference on every model
// load) that may crash or hang: RunInChildProcess forks once per call, a ChildServer forks once
// and reuses the child, and a crash or hang still costs only the one answer.
//
// Contract, and the hazards it answers:
//   - fork() copies only the calling thread. The child runs nothing but `handler`, one request at
//     a time; the handler must not wait for a lock another thread of the caller may have held at
//     the fork (malloc's own locks are safe with glibc).
//   - The child is started by the first Call, and by the first Call after one crashed, hung or
//     went away: a Call reports the failure of its own request, and the next one gets a fresh
//     child. A child that went away between Calls (the thread that started it ended, so
//     PR_SET_PDEATHSIG killed it) is found by the next request's write, which starts a fresh
//     child and sends the request again: the dead child never saw it.
//   - The child keeps stdin, stdout, stderr and its two pipes, and closes every other descriptor
//     it inherited: a long-lived child must not hold a pipe whose reader waits for end of file,
//     nor a file whose flock the caller releases by closing it.
//   - The child dies with the thread that started it (PR_SET_PDEATHSIG) and stays in the caller's
//     process group, so whoever ends the caller or its group ends the child too.
//   - SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT and SIGPIPE take their default action in the
//     child: a crash is reported as the signal that ended it, never as an answer.
//   - Past the deadline the child is killed (SIGKILL) and reaped; a crashed child is reaped: no
//     zombie is left. A child that ended is seen even when another process holds its pipe.
//   - Writing a request cannot raise SIGPIPE in the caller: SIGPIPE is blocked for the write and
//     one the write raised is taken back.
//   - The object belongs to the process that started its child. Used in another process (one
//     that inherited it through fork), it closes the inherited descriptors without signalling or
//     waiting for that child, and starts a child of its own; its destructor likewise only kills a
//     child its own process started.
//   - An exception escaping the handler ends the child (its state is in doubt): the exception's
//     message comes back in `error`, with End::kExited and kHandlerThrewExitCode.
//   - The child ends with _exit: no atexit handlers, no static destructors, no stdio flush.
//   - Not thread-safe: threads that share one ChildServer serialise their Calls.
//
// On the pipes: a request is a U64 size and that many bytes; a reply is a kind byte ('R' the
// handler's answer, 'X' an exception's message), a U64 size and that many bytes (U64 as
// ByteWriter writes it).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

#include "runtime/base/child_process.h"

namespace onnxgate {

class ChildServer {
 public:
  using Handler = std::function<std::string(const std::string& request)>;

  // The exit code of a child whose handler let an exception escape.
  static constexpr int kHandlerThrewExitCode = 70;

  explicit ChildServer(Handler handler);
  // A child this process started is killed (SIGKILL) and reaped.
  ~ChildServer();
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;

  // Sends `request` to the child (forking one first when there is none, or the last one died)
  // and waits at most `timeout_seconds` for its reply:
  //   kExited, exit_code 0, `output` = the handler's reply: success, the child stays;
  //   kSignaled: the child crashed; kTimedOut: it was killed at the deadline;
  //   kExited with kHandlerThrewExitCode: the handler threw, `error` says what;
  //   kNotStarted: pipe or fork failed, `error` says which;
  //   a child that ended mid-reply or sent a malformed reply: kExited with its exit code or
  //   kSignaled, `error` saying what came ("the server sent 5 of 13 bytes of its reply").
  // After any outcome but success the child is gone and reaped.
  ChildOutcome Call(const std::string& request, int timeout_seconds);

  // The live child this process started, -1 if none (for tests).
  pid_t pid() const;

 private:
  using Deadline = std::chrono::steady_clock::time_point;

  // Forks the child; "" on success, else why not.
  std::string Start();
  // Writes the request; false with `outcome` filled when the child cannot take it.
  bool Send(const std::string& request, Deadline deadline, int timeout_seconds,
            ChildOutcome* outcome);
  // Reads one reply into `outcome`: the handler's answer, or how the child ended.
  void Receive(Deadline deadline, int timeout_seconds, ChildOutcome* outcome);
  // Closes this process's ends of the pipes and forgets the child, without signalling it.
  void Forget();
  // Closes the pipes, kills the child when `kill_first`, reaps it and forgets it; how it ended
  // goes into `outcome`.
  void Finish(bool kill_first, ChildOutcome* outcome);

  Handler handler_;
  pid_t pid_ = -1;
  pid_t owner_ = -1;     // the process that started pid_
  int request_fd_ = -1;  // this process's write end of the request pipe
  int reply_fd_ = -1;    // this process's read end of the reply pipe
};

}  // namespace onnxgate
