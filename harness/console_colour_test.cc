// Tests of console colour: only on a terminal, never with NO_COLOR set to something, and padding
// that counts visible characters only.
#include "harness/console_colour.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>

namespace onnxgate {
namespace {

// A pseudo-terminal's slave end as a stream, standing for a console.
class Terminal {
 public:
  Terminal() {
    master_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) return;
    const char* name = ptsname(master_);
    if (name != nullptr) stream_ = std::fopen(name, "w");
  }
  ~Terminal() {
    if (stream_ != nullptr) std::fclose(stream_);
    if (master_ >= 0) close(master_);
  }
  std::FILE* stream() const { return stream_; }

 private:
  int master_ = -1;
  std::FILE* stream_ = nullptr;
};

// Sets NO_COLOR (or unsets it, for nullptr) for one scope.
class NoColor {
 public:
  explicit NoColor(const char* value) {
    const char* old = getenv("NO_COLOR");
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    value != nullptr ? setenv("NO_COLOR", value, 1) : unsetenv("NO_COLOR");
  }
  ~NoColor() { had_ ? setenv("NO_COLOR", old_.c_str(), 1) : unsetenv("NO_COLOR"); }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(ConsoleColourTest, OnlyOnATerminalAndNeverWithNoColorSet) {
  Terminal terminal;
  if (terminal.stream() == nullptr) GTEST_SKIP() << "no pseudo-terminal here";
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    NoColor unset(nullptr);
    EXPECT_TRUE(ColourWanted(terminal.stream()));
    EXPECT_FALSE(ColourWanted(file)) << "never into files";
  }
  {
    NoColor empty("");
    EXPECT_TRUE(ColourWanted(terminal.stream())) << "an empty NO_COLOR is as good as none";
  }
  {
    NoColor set("1");
    EXPECT_FALSE(ColourWanted(terminal.stream()));
  }
  std::fclose(file);
}

TEST(ConsoleColourTest, VerdictWordsArePaddedByWhatShows) {
  EXPECT_EQ(VerdictWord(Verdict::kPass, false, 6), "PASS  ");
  EXPECT_EQ(VerdictWord(Verdict::kPass, true, 6), "\033[32mPASS\033[0m  ");
  EXPECT_EQ(VerdictWord(Verdict::kCrash, true), "\033[1;31mCRASH\033[0m");
  EXPECT_EQ(VerdictWord(Verdict::kSkip, true), "\033[33mSKIP\033[0m");
  EXPECT_EQ(VerdictWord(Verdict::kUnsupported, false, 4), "UNSUPPORTED");
  EXPECT_EQ(Coloured("Result: FAILED", Colour::kRed, false), "Result: FAILED");
}

}  // namespace
}  // namespace onnxgate
