// StderrCapture: what this process writes to file descriptor 2 while it is alive goes to an
// anonymous memory file instead of the console, and Finish hands it back. Used around each case
// (in the worker that runs it, or in the driver itself with --isolation none), so that what a
// runtime's library, plugin or adapter logs lands in that case's record.
//
// Contract, and the hazards it answers:
//   - It moves the descriptor, not a stream: writes from C stdio, C++ streams, other threads
//     and raw write(2) calls are all caught. stderr and std::cerr are flushed at both ends, so
//     nothing written before it starts is caught and nothing written inside it escapes later.
//   - One at a time per process: the previous descriptor 2 is kept in a close-on-exec duplicate
//     and put back by Finish or, when Finish was never called, by the destructor.
//   - When the memory file or the duplicate cannot be made (descriptors exhausted, say), nothing
//     is redirected and Finish returns "": the case runs as it would have, its log on stderr.
//   - The memory file is close-on-exec; a child process started during the case inherits
//     descriptor 2 itself (the memory file) and writes into the log until Finish.
#pragma once

#include <cstddef>
#include <string>

namespace onnxgate {

class StderrCapture {
 public:
  StderrCapture();
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  // Puts descriptor 2 back and returns what was written to it: at most `max_bytes`, then
  // `truncated_note` when more was written. Later calls return "".
  std::string Finish(size_t max_bytes, const std::string& truncated_note);

 private:
  int saved_ = -1;  // the descriptor 2 to put back
  int file_ = -1;   // the memory file descriptor 2 points to meanwhile
};

}  // namespace onnxgate
