// WorkerMain: the long-lived worker's loop, its limits and its result frames.
#include "harness/worker_process.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "harness/process_state.h"

namespace onnxgate {
namespace {

constexpr char kMagic[] = "OGW2";

// This worker's breadcrumb page (null in the parent and in in-process mode).
char* g_breadcrumb = nullptr;
int g_result_fd = -1;

// Whether an allocation with operator new failed during the current job. The new-handler records
// it and steps aside, so that the allocation throws std::bad_alloc as it would without it.
bool g_allocation_failed = false;

void OnAllocationFailure() {
  g_allocation_failed = true;
  std::set_new_handler(nullptr);
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Reads one job index; false at end of file or on an error.
bool ReadIndex(int fd, uint64_t* index) {
  char buf[8];
  size_t got = 0;
  while (got < sizeof buf) {
    const ssize_t n = read(fd, buf + got, sizeof buf - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  std::memcpy(index, buf, sizeof buf);
  return true;
}

// Resident memory of this process in bytes (0 when /proc cannot say).
uint64_t ResidentBytes() {
  FILE* f = std::fopen("/proc/self/statm", "re");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return got == 2 ? resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

void ApplyMemoryLimit(size_t bytes) {
  if (bytes == 0) return;
  rlimit as{bytes, bytes};
  setrlimit(RLIMIT_AS, &as);
}

// RLIMIT_CPU counts the whole life of the process: the soft limit is set to the CPU time used so
// far plus the job's share, rounded up to whole seconds. The hard limit is left as it is, so the
// next job can raise the soft one again.
void ApplyCpuLimit(double seconds) {
  if (seconds <= 0) return;
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double used = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                      static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  rlimit cpu{};
  getrlimit(RLIMIT_CPU, &cpu);
  cpu.rlim_cur = std::min(static_cast<rlim_t>(std::ceil(used + seconds)), cpu.rlim_max);
  setrlimit(RLIMIT_CPU, &cpu);
}

void SetUpProcess(const WorkerSetup& setup) {
  setpgid(0, 0);
  g_breadcrumb = setup.breadcrumb;
#ifdef __linux__
  // A parent killed with SIGKILL cannot clean up; its workers must not outlive it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != setup.parent) _exit(125);
#endif
  for (int fd : setup.fds_to_close) close(fd);
}

void ServeJob(const WorkerSetup& setup, const ProcessState& state, uint64_t index,
              uint64_t resident_at_start) {
  state.Restore();
  ApplyMemoryLimit(setup.options->memory_limit_bytes);  // a job may have raised its own
  ApplyCpuLimit(setup.options->cpu_limit_seconds);
  SetWorkerBreadcrumb("");
  g_allocation_failed = false;
  std::set_new_handler(OnAllocationFailure);
  std::string result;
  ResultHeader header;
  header.kind = RunJobCatching((*setup.jobs)[index], &result, setup.options->memory_limit_bytes);
  std::set_new_handler(nullptr);
  if (header.kind == ResultKind::kPayload && g_allocation_failed) {
    header.kind = ResultKind::kPayloadAfterOutOfMemory;
  }
  // What the job itself printed is in this process's buffers only: flush it with the result.
  FlushAllStreams();
  header.index = index;
  const uint64_t resident = ResidentBytes();
  header.resident_growth = resident > resident_at_start ? resident - resident_at_start : 0;
  header.size = result.size();
  const std::string head = EncodeResultHeader(header);
  if (!WriteAll(setup.result_fd, head.data(), head.size()) ||
      !WriteAll(setup.result_fd, result.data(), result.size())) {
    _exit(124);
  }
}

}  // namespace

std::string EncodeResultHeader(const ResultHeader& header) {
  std::string out(kMagic, 4);
  out.push_back(static_cast<char>(header.kind));
  for (uint64_t v : {header.index, header.resident_growth, header.size}) {
    char bytes[8];
    std::memcpy(bytes, &v, 8);
    out.append(bytes, 8);
  }
  return out;
}

bool CouldStartAResultFrame(std::string_view bytes) {
  const size_t n = std::min<size_t>(bytes.size(), 4);
  return bytes.substr(0, n) == std::string_view(kMagic, n);
}

bool DecodeResultHeader(std::string_view bytes, ResultHeader* header) {
  if (bytes.size() < kResultHeaderBytes || bytes.substr(0, 4) != std::string_view(kMagic, 4)) {
    return false;
  }
  const uint8_t kind = static_cast<uint8_t>(bytes[4]);
  if (kind > static_cast<uint8_t>(ResultKind::kPayloadAfterOutOfMemory)) return false;
  header->kind = static_cast<ResultKind>(kind);
  std::memcpy(&header->index, bytes.data() + 5, 8);
  std::memcpy(&header->resident_growth, bytes.data() + 13, 8);
  std::memcpy(&header->size, bytes.data() + 21, 8);
  return true;
}

void FlushAllStreams() {
  std::cout.flush();
  std::cerr.flush();
  std::clog.flush();
  std::fflush(nullptr);
}

ResultKind RunJobCatching(const Job& job, std::string* out, size_t memory_limit_bytes) {
  try {
    *out = job();
    return ResultKind::kPayload;
  } catch (const std::bad_alloc& e) {
    *out = std::string(e.what());
    if (memory_limit_bytes > 0) {
      *out +=
          " (ran out of its memory limit of " + std::to_string(memory_limit_bytes >> 20) + " MiB)";
    }
    return ResultKind::kOutOfMemory;
  } catch (const std::exception& e) {
    *out = e.what();
  } catch (...) {
    *out = "an exception that is not a std::exception";
  }
  return ResultKind::kException;
}

void SetWorkerBreadcrumb(const std::string& what) {
  if (g_breadcrumb == nullptr) return;
  const size_t n = std::min(what.size(), kMaxBreadcrumb);
  std::memcpy(g_breadcrumb, what.data(), n);
  g_breadcrumb[n] = '\0';
}

int worker_testing::CurrentResultFd() { return g_result_fd; }

void WorkerMain(const WorkerSetup& setup) {
  SetUpProcess(setup);
  g_result_fd = setup.result_fd;
  const ProcessState state = ProcessState::Capture();
  state.Restore();  // default dispositions and an empty signal mask from the start
  ApplyMemoryLimit(setup.options->memory_limit_bytes);
  if (setup.options->enter_slot) {
    try {
      setup.options->enter_slot(setup.slot);
    } catch (...) {
      _exit(126);
    }
  }
  const uint64_t resident_at_start = ResidentBytes();
  uint64_t index = 0;
  while (ReadIndex(setup.request_fd, &index)) {
    if (index >= setup.jobs->size()) _exit(122);
    ServeJob(setup, state, index, resident_at_start);
  }
  _exit(0);
}

}  // namespace onnxgate
