// Tests for the long-lived workers of WorkerPool (harness/worker_slots.h): many jobs per worker
// process, a worker ended by its job's crash, hang or memory replaced without losing or repeating
// another job, recycling by count and by resident memory, jobs that need a process of their own,
// the state a worker puts back between jobs, and workers that break the result protocol.
#include <fenv.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "harness/worker.h"
#include "harness/worker_process.h"

namespace onnxgate {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

void NoCoreFile() {
  rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

std::string Pid() { return std::to_string(getpid()); }

// Each job returns the pid of the process it ran in.
std::vector<Job> PidJobs(size_t n) {
  return std::vector<Job>(n, [] { return Pid(); });
}

std::set<std::string> Payloads(const std::vector<JobResult>& results) {
  std::set<std::string> out;
  for (const JobResult& r : results) out.insert(r.payload);
  return out;
}

TEST(WorkerLifecycleTest, OneWorkerPerSlotServesManyJobs) {
  WorkerOptions options;
  options.parallelism = 2;
  const std::vector<JobResult> results = WorkerPool(options).Run(PidJobs(40));
  for (const JobResult& r : results) ASSERT_EQ(r.outcome, JobOutcome::kOk) << r.message;
  EXPECT_LE(Payloads(results).size(), 2u);
  EXPECT_EQ(Payloads(results).count(Pid()), 0u);
}

TEST(WorkerLifecycleTest, CaseModeGivesEveryJobAFreshProcess) {
  WorkerOptions options;
  options.parallelism = 2;
  options.isolation = Isolation::kCase;
  const std::vector<JobResult> results = WorkerPool(options).Run(PidJobs(10));
  EXPECT_EQ(Payloads(results).size(), 10u);
}

TEST(WorkerLifecycleTest, AWorkerIsRecycledAfterItsNumberOfJobs) {
  WorkerOptions options;
  options.cases_per_worker = 3;
  const std::vector<JobResult> results = WorkerPool(options).Run(PidJobs(9));
  EXPECT_EQ(Payloads(results).size(), 3u);
  EXPECT_EQ(results[0].payload, results[2].payload);
  EXPECT_NE(results[2].payload, results[3].payload);
}

TEST(WorkerLifecycleTest, AWorkerWhoseResidentMemoryGrewIsRecycled) {
  WorkerOptions options;
  options.recycle_resident_growth_bytes = size_t{32} << 20;
  std::vector<Job> jobs = PidJobs(4);
  jobs[1] = [] {
    char* leak = new char[size_t{64} << 20];
    for (size_t i = 0; i < (size_t{64} << 20); i += 4096) leak[i] = 1;
    return Pid();
  };
  const std::vector<JobResult> results = WorkerPool(options).Run(jobs);
  EXPECT_EQ(results[0].payload, results[1].payload);
  EXPECT_NE(results[1].payload, results[2].payload);
  EXPECT_EQ(results[2].payload, results[3].payload);
}

TEST(WorkerLifecycleTest, AJobThatNeedsItsOwnProcessGetsOne) {
  WorkerOptions options;
  options.needs_own_process = [](size_t index) { return index == 2; };
  const std::vector<JobResult> results = WorkerPool(options).Run(PidJobs(5));
  EXPECT_EQ(results[0].payload, results[1].payload);
  EXPECT_NE(results[2].payload, results[1].payload);
  EXPECT_NE(results[3].payload, results[2].payload);
  EXPECT_EQ(results[3].payload, results[4].payload);
}

// A crash, a hang and an allocation past the limit each end their own job's worker only: every
// other job runs exactly once and returns its own answer.
TEST(WorkerLifecycleTest, CrashHangAndMemoryHogAffectOnlyTheirOwnJob) {
  WorkerOptions options;
  options.parallelism = 2;
  options.timeout_seconds = 1;
  options.memory_limit_bytes = size_t{512} << 20;
  std::map<size_t, std::string> kinds = {{3, "crash"}, {7, "hang"}, {11, "hog"}};
  std::vector<Job> jobs;
  for (size_t i = 0; i < 16; ++i) {
    const std::string kind = kinds.count(i) ? kinds[i] : "";
    jobs.push_back([i, kind]() -> std::string {
      if (kind == "crash") {
        NoCoreFile();
        std::raise(SIGSEGV);
      }
      if (kind == "hang") {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      }
      if (kind == "hog") {
        std::vector<char*> kept;
        for (;;) kept.push_back(new char[size_t{64} << 20]);
      }
      return "job " + std::to_string(i);
    });
  }
  std::multiset<size_t> done;
  const std::vector<JobResult> results =
      WorkerPool(options).Run(jobs, [&](const JobResult& r) { done.insert(r.index); });
  EXPECT_EQ(done.size(), 16u);
  for (size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(done.count(i), 1u) << "job " << i;
    if (kinds.count(i)) continue;
    EXPECT_EQ(results[i].outcome, JobOutcome::kOk) << i << ": " << results[i].message;
    EXPECT_EQ(results[i].payload, "job " + std::to_string(i));
  }
  EXPECT_THAT(results[3].message, StartsWith("killed by SIGSEGV"));
  EXPECT_EQ(results[7].outcome, JobOutcome::kTimeout);
  EXPECT_EQ(results[11].outcome, JobOutcome::kCrash);
  EXPECT_THAT(results[11].message, HasSubstr("ran out of its memory limit of 512 MiB"));
}

// A job that corrupts the process state on purpose: the next job of the same worker still sees
// the state the worker started with.
TEST(WorkerLifecycleTest, TheNextJobSeesTheStateTheWorkerStartedWith) {
  std::vector<Job> jobs = {
      [] {
        fesetround(FE_UPWARD);
        setenv("ONNXGATE_WORKER_TEST_CORRUPTED", "1", 1);
        if (chdir("/") != 0) return std::string("chdir failed");
        umask(0777);
        sigset_t block;
        sigemptyset(&block);
        sigaddset(&block, SIGUSR1);
        sigprocmask(SIG_BLOCK, &block, nullptr);
        return Pid();
      },
      [] {
        sigset_t now;
        sigprocmask(SIG_BLOCK, nullptr, &now);
        char cwd[4096];
        const mode_t mask = umask(0);
        return Pid() + " " + std::to_string(std::nearbyint(2.5)) + " " +
               (getenv("ONNXGATE_WORKER_TEST_CORRUPTED") ? "env" : "-") + " " +
               (getcwd(cwd, sizeof cwd) ? cwd : "?") + " " + std::to_string(mask) + " " +
               std::to_string(sigismember(&now, SIGUSR1));
      },
  };
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  const mode_t mask = umask(022);
  umask(mask);
  const std::vector<JobResult> results = WorkerPool(WorkerOptions()).Run(jobs);
  EXPECT_EQ(results[1].payload,
            results[0].payload + " 2.000000 - " + cwd + " " + std::to_string(mask) + " 0");
}

// Writes `bytes` to the result pipe of the worker this runs in.
void WriteToResultPipe(const std::string& bytes) {
  (void)!write(worker_testing::CurrentResultFd(), bytes.data(), bytes.size());
}

std::string Frame(uint64_t index, const std::string& payload) {
  ResultHeader header;
  header.index = index;
  header.size = payload.size();
  return EncodeResultHeader(header) + payload;
}

// Each way a worker can break the protocol ends its own job (CRASH, saying how) and its worker;
// the jobs before and after it are untouched.
TEST(WorkerLifecycleTest, AWorkerThatBreaksTheProtocolIsReplaced) {
  struct Hostile {
    Job job;
    std::string message;
  };
  const std::vector<Hostile> cases = {
      {[]() -> std::string {
         WriteToResultPipe(Frame(0, "forged"));
         pause();
         return "";
       },
       "sent a result for job 0 instead of job 1"},
      {[]() -> std::string {
         WriteToResultPipe(Frame(1, "0123456789").substr(0, 20));
         _exit(0);
       },
       "exited without a complete result (20 bytes of output)"},
      {[]() -> std::string {
         WriteToResultPipe(Frame(1, "0123456789").substr(0, 33));
         raise(SIGKILL);
         return "";
       },
       "killed by SIGKILL"},
      {[]() -> std::string {
         WriteToResultPipe("not a frame at all, just bytes");
         pause();
         return "";
       },
       "sent 30 bytes that are not a result frame"},
      {[]() -> std::string {
         close(worker_testing::CurrentResultFd());
         pause();
         return "";
       },
       "closed its result pipe without a complete result (0 bytes) and kept running"},
  };
  for (const Hostile& h : cases) {
    WorkerOptions options;
    options.timeout_seconds = 20;
    std::vector<Job> jobs = {[] { return Pid(); }, h.job, [] { return Pid(); }};
    const auto start = std::chrono::steady_clock::now();
    const std::vector<JobResult> results = WorkerPool(options).Run(jobs);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << h.message;
    EXPECT_EQ(results[0].outcome, JobOutcome::kOk);
    EXPECT_EQ(results[1].outcome, JobOutcome::kCrash);
    EXPECT_THAT(results[1].message, StartsWith(h.message));
    EXPECT_EQ(results[2].outcome, JobOutcome::kOk) << results[2].message;
    EXPECT_NE(results[2].payload, results[0].payload) << "a fresh worker";
  }
}

// A job that leaves a process behind which writes into its worker's result pipe later: while the
// worker is idle the worker is replaced and no job is touched; while the worker runs another job,
// that job is CRASH saying what arrived, and the worker is replaced.
Job LeavesALateWriter() {
  return [] {
    if (fork() == 0) {
      usleep(100 * 1000);
      WriteToResultPipe("late bytes");
      _exit(0);
    }
    return Pid();
  };
}

Job Sleeps(int ms) {
  return [ms] {
    usleep(static_cast<useconds_t>(ms) * 1000);
    return Pid();
  };
}

TEST(WorkerLifecycleTest, LateBytesFromAnIdleWorkerTouchNoJob) {
  WorkerOptions options;
  options.parallelism = 2;
  const std::vector<JobResult> results =
      WorkerPool(options).Run({LeavesALateWriter(), Sleeps(400)});
  for (const JobResult& r : results) EXPECT_EQ(r.outcome, JobOutcome::kOk) << r.message;
}

TEST(WorkerLifecycleTest, LateBytesDuringAnotherJobAreThatJobsCrash) {
  const std::vector<JobResult> results =
      WorkerPool(WorkerOptions()).Run({LeavesALateWriter(), Sleeps(400), Sleeps(0)});
  EXPECT_EQ(results[0].outcome, JobOutcome::kOk);
  EXPECT_EQ(results[1].outcome, JobOutcome::kCrash);
  EXPECT_EQ(results[1].message, "sent 10 bytes that are not a result frame");
  EXPECT_EQ(results[2].outcome, JobOutcome::kOk);
  EXPECT_NE(results[2].payload, results[0].payload);
}

}  // namespace
}  // namespace onnxgate
