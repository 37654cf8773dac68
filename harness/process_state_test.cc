// Tests for ProcessState: every piece of state a case can change comes back as captured.
#include "harness/process_state.h"

#include <fenv.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include <climits>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <string>

namespace onnxgate {
namespace {

std::string Cwd() {
  char buf[PATH_MAX];
  return getcwd(buf, sizeof buf) != nullptr ? buf : "";
}

bool Blocked(int sig) {
  sigset_t now;
  sigprocmask(SIG_BLOCK, nullptr, &now);
  return sigismember(&now, sig) == 1;
}

TEST(ProcessStateTest, RestoresWhatACarelessKernelChanges) {
  setenv("ONNXGATE_PROCESS_STATE_KEPT", "before", 1);
  unsetenv("ONNXGATE_PROCESS_STATE_ADDED");
  const std::string cwd = Cwd();
  const mode_t mask = umask(022);
  umask(mask);
  const ProcessState state = ProcessState::Capture();

  setenv("ONNXGATE_PROCESS_STATE_KEPT", "changed", 1);
  setenv("ONNXGATE_PROCESS_STATE_ADDED", "1", 1);
  ASSERT_EQ(chdir("/"), 0);
  umask(0777);
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  sigaddset(&block, SIGALRM);
  sigprocmask(SIG_BLOCK, &block, nullptr);
  signal(SIGABRT, SIG_IGN);
  fesetround(FE_UPWARD);
  ASSERT_EQ(std::nearbyint(2.25), 3.0);
#if defined(__x86_64__)
  _mm_setcsr(_mm_getcsr() | 0x8040);  // flush-to-zero and denormals-are-zero
#endif

  state.Restore();

  EXPECT_STREQ(getenv("ONNXGATE_PROCESS_STATE_KEPT"), "before");
  EXPECT_EQ(getenv("ONNXGATE_PROCESS_STATE_ADDED"), nullptr);
  EXPECT_EQ(Cwd(), cwd);
  EXPECT_EQ(umask(mask), mask);
  EXPECT_FALSE(Blocked(SIGUSR1));
  EXPECT_FALSE(Blocked(SIGALRM));
  struct sigaction abrt = {};
  sigaction(SIGABRT, nullptr, &abrt);
  EXPECT_EQ(abrt.sa_handler, SIG_DFL);
  EXPECT_EQ(fegetround(), FE_TONEAREST);
  EXPECT_EQ(std::nearbyint(2.5), 2.0);
#if defined(__x86_64__)
  EXPECT_EQ(_mm_getcsr() & 0x8040u, 0u);
  volatile float denormal = 1e-40f;
  EXPECT_GT(denormal * 1.0f, 0.0f);
#endif
  unsetenv("ONNXGATE_PROCESS_STATE_KEPT");
}

TEST(ProcessStateTest, RestoreOfAnUnchangedProcessChangesNothing) {
  const std::string cwd = Cwd();
  const ProcessState state = ProcessState::Capture();
  const char* path = getenv("PATH");
  const std::string path_before = path != nullptr ? path : "";
  state.Restore();
  state.Restore();
  EXPECT_EQ(Cwd(), cwd);
  path = getenv("PATH");
  EXPECT_EQ(path != nullptr ? path : "", path_before);
  EXPECT_EQ(fegetround(), FE_TONEAREST);
}

TEST(ProcessStateTest, TheCapturedLocaleComesBack) {
  const std::string before = std::setlocale(LC_ALL, nullptr);
  const ProcessState state = ProcessState::Capture();
  if (std::setlocale(LC_ALL, "C.UTF-8") == nullptr) GTEST_SKIP() << "no C.UTF-8 locale";
  state.Restore();
  EXPECT_EQ(std::setlocale(LC_ALL, nullptr), before);
}

}  // namespace
}  // namespace onnxgate
