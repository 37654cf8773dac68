// One adapter process: started from an argument vector (no shell) under a launcher of its own,
// with its stdin and stdout as the protocol's pipes and its stderr a third pipe. Hazards and how
// they are met:
// - What the adapter logs must land with the case that made it log, never block it, and never
//   be lost: the process that calls it copies the stderr pipe to its own descriptor 2 (which
//   a run redirects into the case's record, harness/stderr_capture.h) while it sends a request,
//   while it waits for the reply, after the reply and when the adapter ends. A reply frame is
//   read in one go once it starts to arrive; the stderr pipe is made 1 MiB where the system
//   allows, so an adapter that logs less than that in the middle of writing a frame does not
//   stall. What it logs between calls is copied with the next call.
// - The adapter and whatever it starts must end with it or with onnxgate, even
// a descendant
//   that left the adapter's process group with setsid(). A launcher process
//   (forked, no exec) sits between onnxgate and the adapter: it is a child
//   subreaper (PR_SET_CHILD_SUBREAPER), so every orphaned descendant of the
//   adapter becomes its child; the adapter runs in a process group of its own.
//   When the adapter exits, when onnxgate asks (SIGTERM to the launcher), or
//   when onnxgate is gone (its end of a lifeline pipe closes, however it
//   ended), the launcher kills the adapter's group and then every child it has
//   until none is left, and exits as the adapter did (its exit code, or its
//   signal). So an adapter that exits while a descendant still holds its stdout
//   is seen at once: the launcher kills the descendant and the pipe ends.
// - The pipe descriptors are close-on-exec, so adapters started later do not
// inherit them; the
//   launcher closes every descriptor but its lifeline.
// - Only the process that started it reaps it; a forked worker that used it
// notices its end
//   through the pipe (end of file) or the launcher's pidfd, and the owner
//   learns how it ended when it asks.
// - Every request carries an id from a counter shared (MAP_SHARED) by the owner
// and the
//   workers forked from it, so ids only grow over the adapter's life. A reply
//   with an older id (a late duplicate) is discarded; one with another id, or
//   none, breaks the protocol.
// - A request the adapter does not answer in time, or a reply that is not a
// frame, leaves the
//   stream out of step: the adapter is ended and must be started again.
// - Writing to an adapter that is gone raises SIGPIPE: WriteAll blocks it for
// the write and
//   takes it back, so it is an error (EPIPE), never the death of this process.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/adapter/adapter_frame.h"

namespace onnxgate {

// Whether a reply must echo the request's "id". A hello reply may lack it, so that an adapter of
// an older protocol version is told about the version, not about a missing id; the hello's reader
// then requires it.
enum class ReplyId { kRequired, kMayBeMissing };

class AdapterProcess {
 public:
  // NotFound when argv[0] cannot be executed (no such file, not executable).
  static StatusOr<std::unique_ptr<AdapterProcess>> Start(const std::vector<std::string>& argv);
  ~AdapterProcess();
  AdapterProcess(const AdapterProcess&) = delete;
  AdapterProcess& operator=(const AdapterProcess&) = delete;

  // Sends `request` with the next id and reads its reply frame, discarding replies to earlier
  // requests. Unavailable when the adapter is gone or did not answer by `deadline`; DataLoss when
  // the reply is not a frame or carries a wrong or missing id. Either way it is ended.
  StatusOr<Frame> Call(const Frame& request, std::chrono::steady_clock::time_point deadline,
                       ReplyId id_rule = ReplyId::kRequired);

  // Ends the adapter and everything it started (through the launcher) and, in the owning process,
  // reaps the launcher. Another process (a worker forked from the owner) cannot reap it, so it
  // waits until the adapter's output hangs up (at most kEndWaitMs): once that worker has ended,
  // the owner sees the adapter gone (Usable() is false) and never hands a dying adapter to the
  // next worker.
  void Kill();
  // Whether it can take the next request: it has not ended, has not closed its output and has
  // written nothing unasked. (An adapter that just died can close its output a moment before
  // it can be reaped: the closed pipe says so first.)
  bool Usable();
  // Whether it is known to have ended ("exited with code 1", "killed by SIGSEGV") or been killed.
  bool Ended();
  // How it ended, as far as this process can tell.
  std::string EndDescription();
  // The launcher's process id (the adapter runs as its child).
  pid_t pid() const { return pid_; }

 private:
  static constexpr int kEndWaitMs = 2000;
  AdapterProcess() = default;
  void WaitForHangUp();
  bool LauncherExited(int wait_ms);
  // Copies what the adapter has written to its stderr so far to this process's descriptor 2,
  // without waiting.
  void DrainStderr();
  // Waits until the reply starts to arrive, the adapter ends or `deadline` passes, copying its
  // stderr meanwhile, so that an adapter that logs more than a pipe holds never blocks.
  void AwaitReply(std::chrono::steady_clock::time_point deadline);
  // WriteAll of a request, copying the adapter's stderr while the request pipe is full.
  Status SendDraining(const std::string& bytes, std::chrono::steady_clock::time_point deadline);
  pid_t pid_ = -1;
  pid_t owner_ = -1;  // the process that forked it: only it can reap
  int to_adapter_ = -1;
  int from_adapter_ = -1;
  int adapter_stderr_ = -1;  // the read end of the adapter's stderr, non-blocking
  int lifeline_ = -1;        // the write end; the launcher ends everything when it closes
  int exit_fd_ = -1;         // a pidfd of the launcher, -1 where the kernel has none
  std::atomic<uint64_t>* next_id_ = nullptr;  // shared with forked workers
  bool ended_ = false;
  std::string end_;
};

}  // namespace onnxgate
