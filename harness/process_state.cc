// ProcessState: capture once, restore before each case.
#include "harness/process_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <clocale>
#include <cstdlib>
#include <cstring>
#include <utility>

extern char** environ;

namespace onnxgate {

namespace {

std::vector<std::string> CurrentEnvironment() {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.emplace_back(*e);
  return env;
}

bool EnvironmentIs(const std::vector<std::string>& expected) {
  size_t i = 0;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e, ++i) {
    if (i >= expected.size() || expected[i] != *e) return false;
  }
  return i == expected.size();
}

}  // namespace

const std::vector<int>& CaseEndingSignals() {
  static const std::vector<int> signals = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL, SIGABRT,
                                           SIGPIPE, SIGINT, SIGTERM, SIGXCPU};
  return signals;
}

ProcessState ProcessState::Capture() {
  ProcessState s;
  s.environment_ = CurrentEnvironment();
  s.cwd_fd_ = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  s.umask_ = umask(022);
  umask(s.umask_);
  fegetenv(&s.fenv_);
  const char* locale = std::setlocale(LC_ALL, nullptr);
  s.locale_ = locale != nullptr ? locale : "C";
  return s;
}

ProcessState::ProcessState(ProcessState&& other) noexcept { *this = std::move(other); }

ProcessState& ProcessState::operator=(ProcessState&& other) noexcept {
  std::swap(environment_, other.environment_);
  std::swap(cwd_fd_, other.cwd_fd_);
  std::swap(umask_, other.umask_);
  std::swap(fenv_, other.fenv_);
  std::swap(locale_, other.locale_);
  return *this;
}

ProcessState::~ProcessState() {
  if (cwd_fd_ >= 0) close(cwd_fd_);
}

void ProcessState::RestoreEnvironment() const {
  if (EnvironmentIs(environment_)) return;
  clearenv();
  for (const std::string& entry : environment_) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    setenv(entry.substr(0, eq).c_str(), entry.c_str() + eq + 1, 1);
  }
}

void ProcessState::Restore() const {
  RestoreEnvironment();
  if (cwd_fd_ >= 0) (void)fchdir(cwd_fd_);
  umask(umask_);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : CaseEndingSignals()) signal(sig, SIG_DFL);
  fesetenv(&fenv_);
  std::setlocale(LC_ALL, locale_.c_str());
}

}  // namespace onnxgate
