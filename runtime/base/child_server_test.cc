// Tests of ChildServer: one child serves many calls; a crash, a hang, an exception, a partial or
// malformed reply each cost one call and the next gets a fresh child; large frames both ways; a
// child gone between calls is replaced without SIGPIPE reaching the caller; an object inherited
// through fork starts a child of its own; the destructor leaves no zombie.
#include "runtime/base/child_server.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>

#include "runtime/base/byte_frame.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;

// Replies "<pid> <parent pid>" of the process that serves it.
std::string WhoAnswers(const std::string&) {
  return std::to_string(getpid()) + " " + std::to_string(getppid());
}

pid_t AnsweringPid(const ChildOutcome& o) { return static_cast<pid_t>(std::stol(o.output)); }

bool IsGone(pid_t pid) { return waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD; }

// The child's write end of the reply pipe, found among the few descriptors it keeps.
int ReplyDescriptorInChild() {
  for (int fd = 3; fd < 1024; ++fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) continue;
    if ((fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY) return fd;
  }
  return -1;
}

// Writes a reply header for `claimed` bytes of kind `kind`, then `sent` of them, from the child.
void WriteRawReply(char kind, uint64_t claimed, const std::string& sent) {
  ByteWriter w;
  w.Raw(std::string_view(&kind, 1));
  w.U64(claimed);
  w.Raw(sent);
  const std::string bytes = w.Take();
  const int fd = ReplyDescriptorInChild();
  if (fd < 0 || write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    _exit(99);
  }
}

TEST(ChildServerTest, OneChildServesManyCalls) {
  ChildServer server(WhoAnswers);
  EXPECT_EQ(server.pid(), -1);
  pid_t first = -1;
  for (int i = 0; i < 50; ++i) {
    ChildOutcome o = server.Call("who", 30);
    ASSERT_EQ(o.end, ChildOutcome::End::kExited) << o.error;
    ASSERT_EQ(o.exit_code, 0);
    if (i == 0) first = AnsweringPid(o);
    EXPECT_EQ(AnsweringPid(o), first);
  }
  EXPECT_NE(first, getpid());
  EXPECT_EQ(server.pid(), first);
}

TEST(ChildServerTest, ACrashCostsOneCallAndTheNextGetsAFreshChild) {
  ChildServer server([](const std::string& request) {
    if (request == "crash") std::raise(SIGSEGV);
    return WhoAnswers(request);
  });
  ChildOutcome before = server.Call("who", 30);
  ASSERT_EQ(before.end, ChildOutcome::End::kExited) << before.error;
  const pid_t first = AnsweringPid(before);

  ChildOutcome crash = server.Call("crash", 30);
  EXPECT_EQ(crash.end, ChildOutcome::End::kSignaled);
  EXPECT_EQ(crash.signal, SIGSEGV);
  EXPECT_TRUE(crash.output.empty());
  EXPECT_EQ(crash.error, "the server ended without replying");
  EXPECT_EQ(server.pid(), -1);
  EXPECT_TRUE(IsGone(first));

  ChildOutcome after = server.Call("who", 30);
  ASSERT_EQ(after.end, ChildOutcome::End::kExited) << after.error;
  EXPECT_NE(AnsweringPid(after), first);
}

TEST(ChildServerTest, AHangIsKilledAtTheDeadline) {
  ChildServer server([](const std::string& request) {
    if (request == "hang") {
      for (;;) pause();
    }
    return WhoAnswers(request);
  });
  ChildOutcome before = server.Call("who", 30);
  ASSERT_EQ(before.end, ChildOutcome::End::kExited) << before.error;
  const auto start = std::chrono::steady_clock::now();
  ChildOutcome hang = server.Call("hang", 1);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(hang.end, ChildOutcome::End::kTimedOut);
  EXPECT_EQ(hang.error, "the server did not reply within 1 s");
  EXPECT_LT(took, std::chrono::seconds(30));
  EXPECT_TRUE(IsGone(AnsweringPid(before)));

  ChildOutcome after = server.Call("who", 30);
  ASSERT_EQ(after.end, ChildOutcome::End::kExited) << after.error;
  EXPECT_NE(AnsweringPid(after), AnsweringPid(before));
}

TEST(ChildServerTest, LargeRequestsAndRepliesArriveWhole) {
  ChildServer server([](const std::string& request) { return request + request + "end"; });
  std::string big(3 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 + i / 4096);
  for (int i = 0; i < 2; ++i) {
    ChildOutcome o = server.Call(big, 60);
    ASSERT_EQ(o.end, ChildOutcome::End::kExited) << o.error;
    EXPECT_EQ(o.exit_code, 0);
    EXPECT_TRUE(o.output == big + big + "end");
  }
  ChildOutcome empty = server.Call("", 30);
  ASSERT_EQ(empty.end, ChildOutcome::End::kExited) << empty.error;
  EXPECT_EQ(empty.output, "end");
}

TEST(ChildServerTest, AnExceptionIsReportedAndEndsTheChild) {
  ChildServer server([](const std::string& request) -> std::string {
    if (request == "throw") throw std::runtime_error("no such model: m.onnx");
    if (request == "throw-int") throw 7;
    return WhoAnswers(request);
  });
  ChildOutcome o = server.Call("throw", 30);
  EXPECT_EQ(o.end, ChildOutcome::End::kExited);
  EXPECT_EQ(o.exit_code, ChildServer::kHandlerThrewExitCode);
  EXPECT_EQ(o.error, "the handler threw: no such model: m.onnx");
  EXPECT_TRUE(o.output.empty());
  EXPECT_EQ(server.pid(), -1);

  ChildOutcome other = server.Call("throw-int", 30);
  EXPECT_EQ(other.exit_code, ChildServer::kHandlerThrewExitCode);
  EXPECT_EQ(other.error, "the handler threw: an exception that is not a std::exception");

  ChildOutcome after = server.Call("who", 30);
  EXPECT_EQ(after.end, ChildOutcome::End::kExited);
  EXPECT_EQ(after.exit_code, 0);
}

TEST(ChildServerTest, AReplyCutShortSaysHowMuchCame) {
  ChildServer server([](const std::string& request) -> std::string {
    if (request == "cut") {
      WriteRawReply('R', 13, "hello");
      _exit(5);
    }
    if (request == "cut-header") {
      const int fd = ReplyDescriptorInChild();
      if (fd < 0 || write(fd, "R\1\0", 3) != 3) _exit(99);
      std::raise(SIGBUS);
    }
    return WhoAnswers(request);
  });
  ChildOutcome cut = server.Call("cut", 30);
  EXPECT_EQ(cut.end, ChildOutcome::End::kExited);
  EXPECT_EQ(cut.exit_code, 5);
  EXPECT_EQ(cut.error, "the server sent 14 of 22 bytes of its reply");

  ChildOutcome header = server.Call("cut-header", 30);
  EXPECT_EQ(header.end, ChildOutcome::End::kSignaled);
  EXPECT_EQ(header.signal, SIGBUS);
  EXPECT_EQ(header.error, "the server sent 3 of the 9 bytes of a reply header");

  EXPECT_EQ(server.Call("who", 30).exit_code, 0);
}

TEST(ChildServerTest, AMalformedReplyEndsTheChild) {
  ChildServer server([](const std::string& request) -> std::string {
    if (request == "garble") {
      WriteRawReply('Z', 0, "");
      for (;;) pause();
    }
    return WhoAnswers(request);
  });
  ChildOutcome o = server.Call("garble", 30);
  EXPECT_EQ(o.end, ChildOutcome::End::kSignaled);
  EXPECT_EQ(o.signal, SIGKILL);
  EXPECT_EQ(o.error, "the server sent a reply of unknown kind 0x5a");
  EXPECT_EQ(server.Call("who", 30).exit_code, 0);
}

TEST(ChildServerTest, AChildGoneBetweenCallsIsReplacedWithoutSigpipe) {
  // SIGPIPE at its default action would end this process if the write raised it unblocked.
  struct sigaction old_action;
  struct sigaction default_action;
  std::memset(&default_action, 0, sizeof default_action);
  default_action.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &default_action, &old_action);

  ChildServer server(WhoAnswers);
  ChildOutcome before = server.Call("who", 30);
  ASSERT_EQ(before.end, ChildOutcome::End::kExited) << before.error;
  const pid_t first = AnsweringPid(before);
  // Killed, and waited for without reaping, so that the next write finds no reader.
  ASSERT_EQ(kill(first, SIGKILL), 0);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(first), &info, WEXITED | WNOWAIT), 0);

  ChildOutcome after = server.Call("who", 30);
  ASSERT_EQ(after.end, ChildOutcome::End::kExited) << after.error;
  EXPECT_NE(AnsweringPid(after), first);
  EXPECT_TRUE(IsGone(first));
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE));
  sigaction(SIGPIPE, &old_action, nullptr);
}

TEST(ChildServerTest, AnInheritedServerStartsAChildOfItsOwn) {
  ChildServer server(WhoAnswers);
  ChildOutcome before = server.Call("who", 30);
  ASSERT_EQ(before.end, ChildOutcome::End::kExited) << before.error;
  const pid_t parents_child = AnsweringPid(before);

  const pid_t forked = fork();
  ASSERT_GE(forked, 0);
  if (forked == 0) {
    // Exit codes say what went wrong: gtest's assertions belong to the parent.
    if (server.pid() != -1) _exit(2);
    ChildOutcome o = server.Call("who", 30);
    if (o.end != ChildOutcome::End::kExited || o.exit_code != 0) _exit(3);
    const std::string expected_parent = " " + std::to_string(getpid());
    if (AnsweringPid(o) == parents_child) _exit(4);
    if (o.output.find(expected_parent) == std::string::npos) _exit(5);
    if (server.Call("who", 30).output != o.output) _exit(6);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(forked, &status, 0), forked);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);

  ChildOutcome after = server.Call("who", 30);
  ASSERT_EQ(after.end, ChildOutcome::End::kExited) << after.error;
  EXPECT_EQ(AnsweringPid(after), parents_child);
}

TEST(ChildServerTest, TheDestructorReapsTheChild) {
  pid_t child = -1;
  {
    ChildServer server(WhoAnswers);
    ASSERT_EQ(server.Call("who", 30).exit_code, 0);
    child = server.pid();
    ASSERT_GT(child, 0);
  }
  EXPECT_TRUE(IsGone(child));
}

TEST(ChildServerTest, TheChildKeepsNoOtherDescriptor) {
  int extra[2];
  ASSERT_EQ(pipe(extra), 0);  // not close-on-exec: a fork without exec would keep it
  ChildServer server([&](const std::string&) {
    int open_fds = 0;
    for (int fd = 0; fd < 1024; ++fd) {
      if (fcntl(fd, F_GETFD) >= 0) ++open_fds;
    }
    return std::to_string(open_fds) + (fcntl(extra[1], F_GETFD) >= 0 ? " extra" : "");
  });
  ChildOutcome o = server.Call("count", 30);
  close(extra[0]);
  close(extra[1]);
  ASSERT_EQ(o.exit_code, 0) << o.error;
  // stdin, stdout and stderr (where open) and the two pipes; never `extra`.
  EXPECT_THAT(o.output, ::testing::Not(HasSubstr("extra")));
  EXPECT_LE(std::stoi(o.output), 5);
}

}  // namespace
}  // namespace onnxgate
