// The state of a process that a case can change and that a long-lived worker puts back before the
// next case (harness/worker.h), so that what one case's runtime did to the process cannot change
// another case's verdict.
//
// Captured once when a worker starts, restored before every case:
//   - the environment (every variable, in order; added ones removed, changed ones put back);
//   - the working directory (through a descriptor kept open, so a renamed or removed-and-
//     recreated path does not matter; a directory that no longer exists leaves the last one);
//   - the file mode creation mask (umask);
//   - the signal mask (nothing blocked) and the default disposition of the signals that end a
//     case (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGINT, SIGTERM, SIGXCPU), so a
//     crash is reported as the signal that caused it;
//   - the floating-point environment (rounding mode, exception flags and traps; on x86 also
//     SSE's flush-to-zero and denormals-are-zero bits), which kernels that set it and forget it
//     leave behind and which changes what std::nearbyint, std::rint and every denormal give;
//   - the C locale of the whole process (LC_ALL), which changes how numbers print and parse.
// Not restored (and so kept between cases, by design): the heap and everything reachable from
// globals, caches, loaded libraries and threads a runtime started. docs/architecture.md says what a
// worker may keep and what it must not; a worker is recycled after a number of cases and when its
// resident memory grows, so what leaks there cannot pile up.
#pragma once

#include <fenv.h>
#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace onnxgate {

class ProcessState {
 public:
  // The state of this process now.
  static ProcessState Capture();
  ProcessState(ProcessState&& other) noexcept;
  ProcessState& operator=(ProcessState&& other) noexcept;
  ProcessState(const ProcessState&) = delete;
  ProcessState& operator=(const ProcessState&) = delete;
  ~ProcessState();

  // Puts this process back into the captured state. Cheap (a few system calls and, only when the
  // environment changed, rebuilding it).
  void Restore() const;

 private:
  ProcessState() = default;
  void RestoreEnvironment() const;

  std::vector<std::string> environment_;  // "NAME=value", in environ's order
  int cwd_fd_ = -1;
  mode_t umask_ = 022;
  fenv_t fenv_{};
  std::string locale_;
};

// The signals whose default disposition a worker restores before each case.
const std::vector<int>& CaseEndingSignals();

}  // namespace onnxgate
