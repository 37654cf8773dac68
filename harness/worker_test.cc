// Tests for WorkerPool: payloads, crashes, timeouts, large results, parallelism, ordering, stops,
// and the in-process mode.
#include "harness/worker.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace onnxgate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

double Elapsed(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void SleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// Crashing children would otherwise write core files wherever the test runs.
void NoCoreFile() {
  rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

JobResult RunOne(Job job, WorkerOptions options = {}) {
  std::vector<JobResult> results = WorkerPool(options).Run({std::move(job)});
  EXPECT_EQ(results.size(), 1u);
  return results.at(0);
}

TEST(WorkerTest, ReturnsThePayload) {
  JobResult r = RunOne([] { return std::string("hello"); });
  EXPECT_EQ(r.outcome, JobOutcome::kOk);
  EXPECT_EQ(r.payload, "hello");
  EXPECT_EQ(r.message, "");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(RunOne([] { return std::string(); }).outcome, JobOutcome::kOk);
}

TEST(WorkerTest, AForkedChildGetsItsJobAndWhatItCapturesInMemory) {
  // Nothing about a job is encoded: the child runs the very closure, with the state it refers to.
  struct CaseLike {
    std::string name;
    bool crash = false;
  };
  const std::vector<CaseLike> cases = {{"a"}, {"bb"}, {"crash", true}};
  for (Isolation mode : {Isolation::kWorker, Isolation::kCase, Isolation::kNone}) {
    const bool isolate = mode != Isolation::kNone;
    std::vector<Job> jobs;
    for (const CaseLike& c : cases) {
      if (c.crash && !isolate) continue;
      jobs.push_back([&c] {
        if (c.crash) std::raise(SIGSEGV);
        return c.name + "@" + std::to_string(getpid());
      });
    }
    WorkerOptions options;
    options.isolation = mode;
    options.parallelism = 2;
    std::vector<JobResult> results = WorkerPool(options).Run(jobs);
    ASSERT_EQ(results.size(), isolate ? 3u : 2u);
    const std::string here = "@" + std::to_string(getpid());
    EXPECT_EQ(results[0].payload.rfind("a@", 0), 0u);
    EXPECT_EQ(results[1].payload.rfind("bb@", 0), 0u);
    EXPECT_EQ(results[0].payload == "a" + here, !isolate) << "a forked child runs it";
    if (isolate) {
      EXPECT_EQ(results[2].outcome, JobOutcome::kCrash);
    }
  }
}

TEST(WorkerTest, JobRunsInAChildProcess) {
  pid_t parent = getpid();
  JobResult r = RunOne([] { return std::to_string(getpid()); });
  ASSERT_EQ(r.outcome, JobOutcome::kOk);
  EXPECT_NE(r.payload, std::to_string(parent));
}

TEST(WorkerTest, SegfaultIsACrashNamingTheSignal) {
  JobResult r = RunOne([]() -> std::string {
    NoCoreFile();
    std::raise(SIGSEGV);
    return "unreachable";
  });
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_THAT(r.message, StartsWith("killed by SIGSEGV"));
  EXPECT_EQ(r.payload, "");
}

TEST(WorkerTest, AbortIsACrash) {
  JobResult r = RunOne([]() -> std::string {
    NoCoreFile();
    std::abort();
  });
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_THAT(r.message, StartsWith("killed by SIGABRT"));
}

TEST(WorkerTest, EndlessLoopTimesOutNearTheLimit) {
  WorkerOptions options;
  options.timeout_seconds = 0.5;
  auto start = std::chrono::steady_clock::now();
  JobResult r = RunOne(
      []() -> std::string {
        volatile uint64_t spin = 0;
        while (true) spin = spin + 1;
      },
      options);
  double elapsed = Elapsed(start);
  EXPECT_EQ(r.outcome, JobOutcome::kTimeout);
  EXPECT_THAT(r.message, HasSubstr("timed out after"));
  EXPECT_THAT(r.message, HasSubstr("(limit 0.5 s)"));
  EXPECT_GE(elapsed, 0.45);
  EXPECT_LT(elapsed, 3.0);
  EXPECT_GE(r.seconds, 0.45);
}

// A job that allocates past the worker's address-space limit fails inside the child with a
// message naming the limit; the parent and the rest of the machine are untouched.
TEST(WorkerTest, AllocationPastTheMemoryLimitIsACrashNamingTheLimit) {
  WorkerOptions options;
  options.memory_limit_bytes = size_t{1} << 30;
  JobResult r = RunOne(
      [] {
        // 15 GiB, as a ConstantOfShape of a hostile model would ask for.
        std::vector<char> huge(size_t{15} << 30);
        return std::string(1, huge[0]);
      },
      options);
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_THAT(r.message, HasSubstr("threw an exception: std::bad_alloc"));
  EXPECT_THAT(r.message, HasSubstr("ran out of its memory limit of 1024 MiB"));

  // Within the limit the same kind of job runs.
  JobResult ok = RunOne(
      [] {
        std::vector<char> some(size_t{64} << 20, 'x');
        return std::string(1, some.back());
      },
      options);
  EXPECT_EQ(ok.outcome, JobOutcome::kOk) << ok.message;
  EXPECT_EQ(ok.payload, "x");
}

// CPU time is limited alongside the wall clock: a spinning child past it is TIMEOUT even when
// the wall-clock limit (here none) would never end it.
TEST(WorkerTest, SpinningPastTheCpuLimitIsATimeout) {
  WorkerOptions options;
  options.cpu_limit_seconds = 0.5;  // rounded up to whole seconds: 1 s
  const auto start = std::chrono::steady_clock::now();
  JobResult r = RunOne(
      [] {
        volatile uint64_t n = 0;
        for (;;) n = n + 1;
        return std::string();
      },
      options);
  EXPECT_EQ(r.outcome, JobOutcome::kTimeout);
  EXPECT_EQ(r.signal, SIGXCPU);
  EXPECT_THAT(r.message, HasSubstr("exceeded its CPU-time limit"));
  EXPECT_LT(Elapsed(start), 30.0);
}

// A job says what it is doing; when it dies, the message says where.
TEST(WorkerTest, CrashAndTimeoutMessagesSayWhatTheJobWasDoing) {
  NoCoreFile();
  JobResult crash = RunOne([] {
    SetWorkerBreadcrumb("reading golden /x/y.h5");
    std::raise(SIGSEGV);
    return std::string();
  });
  EXPECT_EQ(crash.outcome, JobOutcome::kCrash);
  EXPECT_EQ(crash.message, "killed by SIGSEGV while reading golden /x/y.h5");

  WorkerOptions options;
  options.timeout_seconds = 0.5;
  JobResult hang = RunOne(
      [] {
        SetWorkerBreadcrumb("running set 0 of m.onnx on test-hang");
        for (;;) SleepMs(100);
        return std::string();
      },
      options);
  EXPECT_EQ(hang.outcome, JobOutcome::kTimeout);
  EXPECT_THAT(hang.message, HasSubstr("(limit 0.5 s) while running set 0 of m.onnx on test-hang"));

  // A job that returns normally keeps its payload, whatever it said it was doing.
  JobResult ok = RunOne([] {
    SetWorkerBreadcrumb("anything");
    return std::string("done");
  });
  EXPECT_EQ(ok.outcome, JobOutcome::kOk);
  EXPECT_EQ(ok.payload, "done");
  // Outside a worker it does nothing.
  SetWorkerBreadcrumb(std::string(10000, 'x'));
}

TEST(WorkerTest, ExitCodeIsACrash) {
  JobResult r = RunOne([]() -> std::string { std::exit(3); });
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_EQ(r.message, "exited with code 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
}

TEST(WorkerTest, ExitWithoutAResultIsACrash) {
  JobResult r = RunOne([]() -> std::string { _exit(0); });
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_EQ(r.message, "exited without a complete result (0 bytes of output)");
  EXPECT_EQ(r.exit_code, 0);
}

TEST(WorkerTest, ExceptionIsACrashWithItsMessage) {
  JobResult r = RunOne([]() -> std::string { throw std::runtime_error("boom"); });
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_EQ(r.message, "threw an exception: boom");
}

TEST(WorkerTest, LargePayloadsArriveWhole) {
  std::vector<Job> jobs;
  for (int i = 0; i < 4; ++i) {
    jobs.push_back([i] {
      std::string s(size_t{1} << 20, '\0');
      for (size_t k = 0; k < s.size(); ++k) s[k] = static_cast<char>((k * 31 + i) & 0xff);
      return s;
    });
  }
  WorkerOptions options;
  options.parallelism = 2;
  std::vector<JobResult> results = WorkerPool(options).Run(jobs);
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(results[i].outcome, JobOutcome::kOk) << results[i].message;
    ASSERT_EQ(results[i].payload.size(), size_t{1} << 20);
    bool same = true;
    for (size_t k = 0; k < results[i].payload.size(); ++k) {
      same &= results[i].payload[k] == static_cast<char>((k * 31 + i) & 0xff);
    }
    EXPECT_TRUE(same) << "job " << i;
  }
}

TEST(WorkerTest, OversizedPayloadIsACrash) {
  WorkerOptions options;
  options.max_payload_bytes = 1000;
  JobResult r = RunOne([] { return std::string(100000, 'x'); }, options);
  EXPECT_EQ(r.outcome, JobOutcome::kCrash);
  EXPECT_EQ(r.message, "result larger than the limit of 1000 bytes");
}

// Open descriptors of this process, to check that no pipe end leaks.
int OpenFds() {
  int n = 0;
  for (int fd = 0; fd < 4096; ++fd) n += fcntl(fd, F_GETFD) != -1;
  return n;
}

TEST(WorkerTest, FiftyJobsWithParallelismTwo) {
  int fds_before = OpenFds();
  std::vector<Job> jobs;
  for (int i = 0; i < 50; ++i) jobs.push_back([i] { return "job " + std::to_string(i); });
  WorkerOptions options;
  options.parallelism = 2;
  std::set<size_t> seen;
  std::vector<JobResult> results =
      WorkerPool(options).Run(jobs, [&](const JobResult& r) { seen.insert(r.index); });
  ASSERT_EQ(results.size(), 50u);
  for (size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(results[i].index, i);
    EXPECT_EQ(results[i].outcome, JobOutcome::kOk) << results[i].message;
    EXPECT_EQ(results[i].payload, "job " + std::to_string(i));
  }
  EXPECT_EQ(seen.size(), 50u);
  EXPECT_EQ(OpenFds(), fds_before);
}

TEST(WorkerTest, NeverRunsMoreThanParallelismAtOnce) {
  std::vector<Job> jobs(4, [] {
    SleepMs(200);
    return std::string("done");
  });
  WorkerOptions options;
  options.parallelism = 2;
  auto start = std::chrono::steady_clock::now();
  std::vector<JobResult> results = WorkerPool(options).Run(jobs);
  EXPECT_GE(Elapsed(start), 0.39);  // two rounds of two
  for (const JobResult& r : results) EXPECT_EQ(r.outcome, JobOutcome::kOk);
}

TEST(WorkerTest, CallbackSeesCompletionOrderResultsComeInJobOrder) {
  std::vector<Job> jobs;
  for (int ms : {600, 20, 300}) {
    jobs.push_back([ms] {
      SleepMs(ms);
      return std::to_string(ms);
    });
  }
  WorkerOptions options;
  options.parallelism = 3;
  std::vector<size_t> completion;
  std::vector<JobResult> results =
      WorkerPool(options).Run(jobs, [&](const JobResult& r) { completion.push_back(r.index); });
  EXPECT_THAT(completion, ElementsAre(1, 2, 0));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].payload, "600");
  EXPECT_EQ(results[1].payload, "20");
  EXPECT_EQ(results[2].payload, "300");
}

TEST(WorkerTest, MixedOutcomesInOneRun) {
  WorkerOptions options;
  options.parallelism = 3;
  options.timeout_seconds = 1;
  std::vector<Job> jobs = {
      [] { return std::string("ok"); },
      []() -> std::string {
        NoCoreFile();
        std::raise(SIGSEGV);
        return "";
      },
      []() -> std::string {
        while (true) pause();
      },
      []() -> std::string { std::exit(7); },
      [] { return std::string("ok too"); },
  };
  std::vector<JobResult> results = WorkerPool(options).Run(jobs);
  EXPECT_EQ(results[0].payload, "ok");
  EXPECT_EQ(results[1].signal, SIGSEGV);
  EXPECT_EQ(results[2].outcome, JobOutcome::kTimeout);
  EXPECT_EQ(results[3].message, "exited with code 7");
  EXPECT_EQ(results[4].payload, "ok too");
}

TEST(WorkerTest, ChildThatLeavesAGrandchildHoldingThePipe) {
  WorkerOptions options;
  options.timeout_seconds = 20;
  auto start = std::chrono::steady_clock::now();
  JobResult r = RunOne(
      [] {
        if (fork() == 0) {
          sleep(30);
          _exit(0);
        }
        return std::string("parent part");
      },
      options);
  EXPECT_EQ(r.outcome, JobOutcome::kOk) << r.message;
  EXPECT_EQ(r.payload, "parent part");
  EXPECT_LT(Elapsed(start), 5.0);
}

TEST(WorkerTest, ParentOutputIsNotRepeatedChildOutputIsKept) {
  ::testing::internal::CaptureStdout();
  std::printf("parent;");  // sits in the stdio buffer: stdout is a file now
  std::vector<Job> jobs(3, [] {
    std::printf("child;");
    return std::string("x");
  });
  WorkerPool(WorkerOptions()).Run(jobs);
  std::fflush(stdout);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "parent;child;child;child;");
}

TEST(WorkerTest, StopRequestKillsRunningAndSkipsTheRest) {
  ClearStopRequest();
  ScopedStopSignals signals;
  std::vector<Job> jobs = {[] { return std::string("quick"); }};
  for (int i = 0; i < 3; ++i) {
    jobs.push_back([] {
      SleepMs(30000);
      return std::string("slow");
    });
  }
  WorkerOptions options;
  options.parallelism = 2;
  auto start = std::chrono::steady_clock::now();
  std::vector<JobResult> results = WorkerPool(options).Run(jobs, [](const JobResult& r) {
    if (r.index == 0) std::raise(SIGINT);
  });
  EXPECT_LT(Elapsed(start), 5.0);
  EXPECT_TRUE(StopRequested());
  EXPECT_EQ(StopSignal(), SIGINT);
  ClearStopRequest();
  EXPECT_EQ(results[0].outcome, JobOutcome::kOk);
  EXPECT_EQ(results[1].outcome, JobOutcome::kNotRun);
  EXPECT_EQ(results[1].message, "not run: stopped while running");
  EXPECT_TRUE(results[1].started);
  EXPECT_EQ(results[2].outcome, JobOutcome::kNotRun);
  EXPECT_EQ(results[2].message, "not run");
  EXPECT_FALSE(results[2].started);
  EXPECT_EQ(results[3].outcome, JobOutcome::kNotRun);
}

TEST(WorkerTest, InProcessModeHasTheSameInterface) {
  WorkerOptions options;
  options.isolation = Isolation::kNone;
  options.parallelism = 4;
  pid_t self = getpid();
  std::vector<Job> jobs = {
      [] { return std::to_string(getpid()); },
      []() -> std::string { throw std::runtime_error("bad"); },
      [] { return std::string("third"); },
  };
  std::vector<size_t> completion;
  std::vector<JobResult> results =
      WorkerPool(options).Run(jobs, [&](const JobResult& r) { completion.push_back(r.index); });
  EXPECT_EQ(results[0].payload, std::to_string(self));
  EXPECT_EQ(results[1].outcome, JobOutcome::kCrash);
  EXPECT_EQ(results[1].message, "threw an exception: bad");
  EXPECT_EQ(results[2].payload, "third");
  EXPECT_THAT(completion, ElementsAre(0, 1, 2));
}

TEST(WorkerTest, InProcessModeHonoursStop) {
  ClearStopRequest();
  WorkerOptions options;
  options.isolation = Isolation::kNone;
  std::vector<Job> jobs(3, [] { return std::string("x"); });
  std::vector<JobResult> results =
      WorkerPool(options).Run(jobs, [](const JobResult&) { RequestStop(); });
  ClearStopRequest();
  EXPECT_EQ(results[0].outcome, JobOutcome::kOk);
  EXPECT_EQ(results[1].outcome, JobOutcome::kNotRun);
  EXPECT_EQ(results[2].outcome, JobOutcome::kNotRun);
}

TEST(WorkerTest, Names) {
  EXPECT_EQ(SignalName(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(SignalName(SIGKILL), "SIGKILL");
  EXPECT_EQ(SignalName(1000), "signal 1000");
  EXPECT_STREQ(JobOutcomeName(JobOutcome::kTimeout), "TIMEOUT");
  EXPECT_STREQ(JobOutcomeName(JobOutcome::kNotRun), "NOT_RUN");
}

}  // namespace
}  // namespace onnxgate
