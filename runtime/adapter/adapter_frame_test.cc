// Frames read from a pipe: a header nested past the limit is refused before it is parsed, what is
// quoted from hostile bytes is bounded and escaped, a request JSON cannot carry is an error, and
// a writer that has ended is noticed through its pidfd even while another process holds the pipe.
#include "runtime/adapter/adapter_frame.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

// A frame with the raw header `header`, written into a pipe by a child and read back.
StatusOr<Frame> ReadRawHeader(const std::string& header) {
  std::string bytes(kFrameMagic, sizeof(kFrameMagic));
  for (uint32_t v : {static_cast<uint32_t>(header.size()), 0u}) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  bytes += header;
  int fds[2];
  EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
  const pid_t writer = fork();
  if (writer == 0) {
    close(fds[0]);
    _exit(WriteAll(fds[1], bytes).ok() ? 0 : 1);
  }
  close(fds[1]);
  auto frame = ReadFrame(fds[0], Clock::now() + std::chrono::seconds(30));
  close(fds[0]);
  waitpid(writer, nullptr, 0);
  return frame;
}

TEST(AdapterFrameTest, AHeaderNestedPastTheLimitIsRefusedBeforeParsing) {
  const int depth = 1000000;
  const std::string deep = "{\"x\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
  auto frame = ReadRawHeader(deep);
  ASSERT_FALSE(frame.ok());
  EXPECT_EQ(frame.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(frame.status().message(),
              HasSubstr("frame header: brackets nest deeper than 64 levels"));
  EXPECT_LT(frame.status().message().size(), 400u);
  const std::string ok = "{\"x\": " + std::string(60, '[') + std::string(60, ']') + "}";
  auto shallow = ReadRawHeader(ok);
  ASSERT_TRUE(shallow.ok()) << shallow.status().ToString();
  EXPECT_EQ(shallow->header_start, ok.substr(0, kMaxQuotedBytes));
}

TEST(AdapterFrameTest, QuotedBytesAreBoundedAndEscaped) {
  EXPECT_EQ(QuoteBytes("a'b\\c\n\xff"), "'a\\x27b\\x5cc\\x0a\\xff'");
  EXPECT_EQ(QuoteBytes(std::string(1000, 'x'), 3), "'xxx' (the first 3 of 1000 bytes)");
}

TEST(AdapterFrameTest, ARequestJsonCannotCarryIsAnError) {
  Frame frame;
  frame.header = {{"model_path", std::string("caf\xe9.onnx")}};
  auto bytes = EncodeFrame(frame);
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(), HasSubstr("a request the protocol cannot carry"));
}

#ifdef SYS_pidfd_open
TEST(AdapterFrameTest, AWriterThatEndedIsSeenWhileAnotherProcessHoldsThePipe) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  const pid_t writer = fork();
  if (writer == 0) _exit(0);
  const int exit_fd = static_cast<int>(syscall(SYS_pidfd_open, writer, 0));
  ASSERT_GE(exit_fd, 0);
  // This process keeps the write end open, as an orphan of the writer would.
  auto frame = ReadFrame(fds[0], Clock::now() + std::chrono::seconds(60), exit_fd);
  ASSERT_FALSE(frame.ok());
  EXPECT_EQ(frame.status().code(), StatusCode::kUnavailable);
  EXPECT_THAT(frame.status().message(),
              HasSubstr("a process it left behind still holds its output open"));
  waitpid(writer, nullptr, 0);
  for (int fd : {fds[0], fds[1], exit_fd}) close(fd);
}
#endif

}  // namespace
}  // namespace onnxgate
