// ProgressReporter: the in-place progress line on a terminal, heartbeats elsewhere.
#include "harness/progress.h"

#include <unistd.h>

#include <chrono>
#include <cmath>

namespace onnxgate {

namespace {

// "2.8s", "59.9s", "1m05s", "1h02m".
std::string Duration(double seconds) {
  char text[32];
  if (!(seconds >= 0) || seconds > 1e7) return "?";
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1fs", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ldh%02ldm", m / 60, m % 60);
  }
  return text;
}

// "430/s", "2.5/s", "0.02/s".
std::string Rate(double per_second) {
  char text[32];
  const char* format = per_second >= 10 ? "%.0f/s" : per_second >= 1 ? "%.1f/s" : "%.2f/s";
  std::snprintf(text, sizeof text, format, per_second);
  return text;
}

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string ProgressText(size_t done, size_t total, double elapsed_seconds) {
  std::string text = std::to_string(done) + "/" + std::to_string(total) + " cases, ";
  if (done == 0 || elapsed_seconds <= 0) return text + Duration(elapsed_seconds) + " elapsed";
  const double rate = static_cast<double>(done) / elapsed_seconds;
  const double left = done >= total ? 0 : static_cast<double>(total - done) / rate;
  return text + Rate(rate) + ", " + Duration(elapsed_seconds) + " elapsed, ETA " + Duration(left);
}

ProgressReporter::ProgressReporter(size_t total, bool terminal, std::FILE* out, Clock now)
    : total_(total), terminal_(terminal), out_(out), now_(std::move(now)) {
  start_ = last_shown_ = now_();
}

ProgressReporter ProgressReporter::ForStderr(size_t total) {
  return ProgressReporter(total, isatty(STDERR_FILENO) == 1, stderr, SteadySeconds);
}

void ProgressReporter::CaseDone(size_t done) {
  const double now = now_();
  if (terminal_) {
    if (done < total_ && now - last_shown_ < kTerminalRefreshSeconds && shown_width_ > 0) return;
    const std::string text = ProgressText(done, total_, now - start_);
    // Spaces cover what is left of a longer line before it.
    const size_t pad = shown_width_ > text.size() ? shown_width_ - text.size() : 0;
    std::fprintf(out_, "\r%s%*s", text.c_str(), static_cast<int>(pad), "");
    shown_width_ = text.size() + pad;
  } else {
    if (now - last_shown_ < kHeartbeatSeconds) return;
    std::fprintf(out_, "progress: %s\n", ProgressText(done, total_, now - start_).c_str());
  }
  last_shown_ = now;
  std::fflush(out_);
}

void ProgressReporter::Clear() {
  if (shown_width_ == 0) return;
  std::fprintf(out_, "\r%*s\r", static_cast<int>(shown_width_), "");
  std::fflush(out_);
  shown_width_ = 0;
}

}  // namespace onnxgate
