// Tests of the per-case stderr capture: every way of writing to descriptor 2 is caught, the
// console gets it back afterwards, and a long log is cut with a note.
#include "harness/stderr_capture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(StderrCaptureTest, CatchesStdioStreamsAndRawWrites) {
  ::testing::internal::CaptureStderr();  // stands for the console
  std::fprintf(stderr, "before\n");
  std::string log;
  {
    StderrCapture capture;
    std::fprintf(stderr, "stdio ");
    std::cerr << "stream ";
    const ssize_t n = write(STDERR_FILENO, "raw\n", 4);
    EXPECT_EQ(n, 4);
    log = capture.Finish(1024, "[cut]");
    EXPECT_EQ(capture.Finish(1024, "[cut]"), "") << "a second Finish has nothing";
  }
  std::fprintf(stderr, "after\n");
  const std::string console = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(log, "stdio stream raw\n");
  EXPECT_EQ(console, "before\nafter\n");
}

TEST(StderrCaptureTest, ALongLogIsCutWithTheNote) {
  StderrCapture capture;
  for (int i = 0; i < 100; ++i) std::fprintf(stderr, "0123456789");
  EXPECT_EQ(capture.Finish(25, "[cut]"), "0123456789012345678901234[cut]");
}

TEST(StderrCaptureTest, NothingWrittenIsAnEmptyLog) {
  StderrCapture capture;
  EXPECT_EQ(capture.Finish(100, "[cut]"), "");
}

TEST(StderrCaptureTest, WithoutFinishTheDestructorPutsTheConsoleBack) {
  ::testing::internal::CaptureStderr();
  {
    StderrCapture capture;
    std::fprintf(stderr, "swallowed\n");
  }
  std::fprintf(stderr, "shown\n");
  const std::string console = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(console, HasSubstr("shown"));
  EXPECT_THAT(console, Not(HasSubstr("swallowed")));
}

}  // namespace
}  // namespace onnxgate
