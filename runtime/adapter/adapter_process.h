// One adapter process: started from an argument vector (no shell), in a process group of its
// own, with its stdin and stdout as the protocol's pipes and its stderr shared with onnxgate's
// (what it logs shows up in the run's output). Hazards and how they are met:
// - The pipe descriptors are close-on-exec, so adapters started later do not inherit them.
// - Only the process that started it reaps it; a forked worker that used it only notices its
//   end through the pipe (end of file), and the owner learns how it ended when it asks.
// - A request the adapter does not answer in time, or a reply that is not a frame, leaves the
//   stream out of step: the adapter is killed (its whole group) and must be started again.
// - Writing to an adapter that is gone raises SIGPIPE: WriteAll blocks it for the write and
//   takes it back, so it is an error (EPIPE), never the death of this process.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "runtime/adapter/adapter_frame.h"

namespace onnxgate {

class AdapterProcess {
 public:
  // NotFound when argv[0] cannot be executed (no such file, not executable).
  static StatusOr<std::unique_ptr<AdapterProcess>> Start(const std::vector<std::string>& argv);
  ~AdapterProcess();
  AdapterProcess(const AdapterProcess&) = delete;
  AdapterProcess& operator=(const AdapterProcess&) = delete;

  // Sends `request` and reads the reply frame. Unavailable when the adapter is gone or did not
  // answer by `deadline` (it is then killed); DataLoss when the reply is not a frame (killed).
  StatusOr<Frame> Call(const Frame& request, std::chrono::steady_clock::time_point deadline);

  // Kills the process group and, in the owning process, reaps it. Another process (a worker
  // forked from the owner) cannot reap it, so it waits until the adapter's output hangs up (at
  // most kHangUpWaitMs): once that worker has ended, the owner sees the adapter gone
  // (Usable() is false) and never hands a dying adapter to the next worker.
  void Kill();
  // Whether it can take the next request: it has not ended, has not closed its output and has
  // written nothing unasked. (An adapter that just died can close its output a moment before
  // it can be reaped: the closed pipe says so first.)
  bool Usable();
  // Whether it is known to have ended ("exited with code 1", "killed by SIGSEGV") or been killed.
  bool Ended();
  // How it ended, as far as this process can tell.
  std::string EndDescription();
  pid_t pid() const { return pid_; }

 private:
  static constexpr int kHangUpWaitMs = 2000;
  AdapterProcess() = default;
  void WaitForHangUp();
  pid_t pid_ = -1;
  pid_t owner_ = -1;  // the process that forked it: only it can reap
  int to_adapter_ = -1;
  int from_adapter_ = -1;
  bool ended_ = false;
  std::string end_;
};

}  // namespace onnxgate
