// ProgressReporter: how far a run is, on stderr, without cluttering logs.
//
// On a terminal one line ("1200/2806 cases, 430/s, 2.8s elapsed, ETA 3.7s") is rewritten in
// place with \r after each finished case (at most every kTerminalRefreshSeconds), cleared before
// anything else is printed (Clear) and at the end (Finish), so it never mixes with other lines.
// Elsewhere (a CI log, a file) it prints a heartbeat line "progress: 1200/2806 cases, ..." when
// a case finishes at least kHeartbeatSeconds after the run started or after the last heartbeat:
// a run shorter than that prints none.
//
// The clock and the output are the caller's, so a test can drive it without waiting. Not
// thread-safe: the driver calls it from its one thread, in completion order.
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

namespace onnxgate {

inline constexpr double kHeartbeatSeconds = 10.0;
inline constexpr double kTerminalRefreshSeconds = 0.1;

// "1200/2806 cases, 430/s, 2.8s elapsed, ETA 3.7s"; before any case is done, no rate and no ETA.
std::string ProgressText(size_t done, size_t total, double elapsed_seconds);

class ProgressReporter {
 public:
  using Clock = std::function<double()>;  // seconds on a monotonic clock
  // `terminal`: whether `out` is a terminal (the in-place line) or not (heartbeats). The run
  // starts at the clock's first reading, taken here.
  ProgressReporter(size_t total, bool terminal, std::FILE* out, Clock now);
  // The progress reporter of a run on stderr with the steady clock: the in-place line when
  // stderr is a terminal, heartbeats otherwise.
  static ProgressReporter ForStderr(size_t total);

  // `done` cases of the total have finished.
  void CaseDone(size_t done);
  // Erases the in-place line, if one is shown, so that the next output starts on a clean line.
  void Clear();
  // The run is over: the in-place line is erased.
  void Finish() { Clear(); }

 private:
  size_t total_;
  bool terminal_;
  std::FILE* out_;
  Clock now_;
  double start_;
  double last_shown_;
  size_t shown_width_ = 0;  // characters of the in-place line now on the terminal
};

}  // namespace onnxgate
