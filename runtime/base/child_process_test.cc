// Tests of RunInChildProcess: an answer larger than a pipe's buffer, a crash, a hang past the
// deadline, and an exit code.
#include "runtime/base/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

namespace onnxgate {
namespace {

TEST(ChildProcessTest, ReturnsALargeAnswerWhole) {
  const std::string big(1 << 20, 'x');
  ChildOutcome o = RunInChildProcess([&] { return big + "end"; }, 30);
  EXPECT_EQ(o.end, ChildOutcome::End::kExited);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.output, big + "end");
}

TEST(ChildProcessTest, ACrashIsTheSignalNotAnAnswer) {
  ChildOutcome o = RunInChildProcess(
      []() -> std::string {
        signal(SIGABRT, SIG_DFL);
        abort();
      },
      30);
  EXPECT_EQ(o.end, ChildOutcome::End::kSignaled);
  EXPECT_EQ(o.signal, SIGABRT);
  EXPECT_TRUE(o.output.empty());
}

TEST(ChildProcessTest, AHangIsKilledAtTheDeadline) {
  ChildOutcome o = RunInChildProcess(
      []() -> std::string {
        for (;;) pause();
      },
      1);
  EXPECT_EQ(o.end, ChildOutcome::End::kTimedOut);
}

TEST(ChildProcessTest, AnExitCodeIsKept) {
  ChildOutcome o = RunInChildProcess([]() -> std::string { _exit(7); }, 30);
  EXPECT_EQ(o.end, ChildOutcome::End::kExited);
  EXPECT_EQ(o.exit_code, 7);
}

}  // namespace
}  // namespace onnxgate
