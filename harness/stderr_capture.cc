// StderrCapture: descriptor 2 moved to a memory file and back.
#include "harness/stderr_capture.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iostream>

namespace onnxgate {

namespace {

void FlushStderr() {
  std::cerr.flush();
  std::clog.flush();
  std::fflush(stderr);
}

// dup2 that is not undone by a signal arriving.
bool MoveDescriptor(int from, int to) {
  for (;;) {
    if (dup2(from, to) >= 0) return true;
    if (errno != EINTR) return false;
  }
}

}  // namespace

StderrCapture::StderrCapture() {
  FlushStderr();
  file_ = memfd_create("onnxgate-runtime-log", MFD_CLOEXEC);
  if (file_ < 0) return;
  saved_ = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (saved_ < 0 || !MoveDescriptor(file_, STDERR_FILENO)) {
    if (saved_ >= 0) close(saved_);
    close(file_);
    saved_ = file_ = -1;
  }
}

StderrCapture::~StderrCapture() { Finish(0, ""); }

std::string StderrCapture::Finish(size_t max_bytes, const std::string& truncated_note) {
  if (file_ < 0) return "";
  FlushStderr();
  MoveDescriptor(saved_, STDERR_FILENO);
  close(saved_);
  const off_t size = lseek(file_, 0, SEEK_END);
  std::string log(size > 0 ? std::min(static_cast<size_t>(size), max_bytes) : 0, '\0');
  size_t got = 0;
  while (got < log.size()) {
    const ssize_t n = pread(file_, log.data() + got, log.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  log.resize(got);
  if (size > 0 && static_cast<size_t>(size) > max_bytes) log += truncated_note;
  close(file_);
  saved_ = file_ = -1;
  return log;
}

}  // namespace onnxgate
