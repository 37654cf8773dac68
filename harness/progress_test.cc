// Tests of the progress reporter on a fake clock: the in-place line on a terminal, heartbeats
// (and none for a short run) elsewhere.
#include "harness/progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// What a reporter writes, through a memory stream, with a clock the test sets.
class ProgressTest : public ::testing::Test {
 protected:
  void SetUp() override { out_ = open_memstream(&buffer_, &size_); }
  void TearDown() override {
    if (out_ != nullptr) std::fclose(out_);
    std::free(buffer_);
  }
  ProgressReporter Reporter(size_t total, bool terminal) {
    return ProgressReporter(total, terminal, out_, [this] { return now_; });
  }
  std::string Written() {
    std::fflush(out_);
    return std::string(buffer_, size_);
  }

  double now_ = 100.0;
  std::FILE* out_ = nullptr;
  char* buffer_ = nullptr;
  size_t size_ = 0;
};

TEST(ProgressTextTest, SaysCasesRateElapsedAndEta) {
  EXPECT_EQ(ProgressText(1200, 2806, 2.8), "1200/2806 cases, 429/s, 2.8s elapsed, ETA 3.7s");
  EXPECT_EQ(ProgressText(0, 10, 0.5), "0/10 cases, 0.5s elapsed");
  EXPECT_EQ(ProgressText(3, 10, 2.0), "3/10 cases, 1.5/s, 2.0s elapsed, ETA 4.7s");
  EXPECT_EQ(ProgressText(10, 200, 125.0), "10/200 cases, 0.08/s, 2m05s elapsed, ETA 39m35s");
  EXPECT_EQ(ProgressText(5, 5, 1.0), "5/5 cases, 5.0/s, 1.0s elapsed, ETA 0.0s");
}

TEST_F(ProgressTest, AShortRunOffATerminalPrintsNothing) {
  ProgressReporter progress = Reporter(100, /*terminal=*/false);
  for (size_t done = 1; done <= 100; ++done) {
    now_ += 0.09;
    progress.CaseDone(done);
  }
  progress.Finish();
  EXPECT_EQ(Written(), "");
}

TEST_F(ProgressTest, ALongRunOffATerminalBeatsAtMostEveryTenSeconds) {
  ProgressReporter progress = Reporter(40, /*terminal=*/false);
  for (size_t done = 1; done <= 40; ++done) {
    now_ += 1.0;  // a case a second: heartbeats at 10, 20, 30 and 40 seconds
    progress.CaseDone(done);
  }
  progress.Finish();
  EXPECT_EQ(Written(),
            "progress: 10/40 cases, 1.0/s, 10.0s elapsed, ETA 30.0s\n"
            "progress: 20/40 cases, 1.0/s, 20.0s elapsed, ETA 20.0s\n"
            "progress: 30/40 cases, 1.0/s, 30.0s elapsed, ETA 10.0s\n"
            "progress: 40/40 cases, 1.0/s, 40.0s elapsed, ETA 0.0s\n");
}

TEST_F(ProgressTest, ASlowCaseGetsOneHeartbeatNotOnePerTenSecondsMissed) {
  ProgressReporter progress = Reporter(3, /*terminal=*/false);
  now_ += 35;
  progress.CaseDone(1);
  now_ += 1;
  progress.CaseDone(2);
  EXPECT_EQ(Written(), "progress: 1/3 cases, 0.03/s, 35.0s elapsed, ETA 1m10s\n");
}

TEST_F(ProgressTest, OnATerminalTheLineIsRewrittenInPlaceAndClearedAtTheEnd) {
  ProgressReporter progress = Reporter(12, /*terminal=*/true);
  now_ += 1;
  progress.CaseDone(1);
  now_ += 0.01;
  progress.CaseDone(2);  // within the refresh interval: not redrawn
  now_ += 1;
  progress.CaseDone(9);
  now_ += 1;
  progress.CaseDone(12);  // the last one is always drawn
  progress.Finish();
  const std::string first = "1/12 cases, 1.0/s, 1.0s elapsed, ETA 11.0s";
  const std::string second = "9/12 cases, 4.5/s, 2.0s elapsed, ETA 0.7s";
  const std::string third = "12/12 cases, 4.0/s, 3.0s elapsed, ETA 0.0s";
  // A shorter line is followed by spaces over the end of the longer one before it.
  ASSERT_EQ(first.size(), second.size() + 1);
  EXPECT_EQ(Written(), "\r" + first + "\r" + second + " " + "\r" + third + "\r" +
                           std::string(third.size(), ' ') + "\r");
  EXPECT_EQ(Written().find('\n'), std::string::npos) << "the line never scrolls";
}

TEST_F(ProgressTest, ClearErasesTheLineOnceBeforeOtherOutput) {
  ProgressReporter progress = Reporter(4, /*terminal=*/true);
  now_ += 1;
  progress.CaseDone(1);
  const size_t drawn = Written().size();
  progress.Clear();
  progress.Clear();  // nothing shown: nothing to erase
  const std::string cleared = Written().substr(drawn);
  EXPECT_EQ(cleared, "\r" + std::string(drawn - 1, ' ') + "\r");
  now_ += 0.01;
  progress.CaseDone(2);  // after a clear the line comes back at once
  EXPECT_THAT(Written().substr(drawn + cleared.size()), HasSubstr("2/4 cases"));
}

}  // namespace
}  // namespace onnxgate
