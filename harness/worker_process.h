// The worker's side of harness/worker.h: a process forked from the pool's parent that serves job
// after job. The parent writes a job's index to the worker's request pipe; the worker runs that
// job (which it inherited in memory at the fork, with everything it refers to), writes one result
// frame to its result pipe and waits for the next index. At end of file on the request pipe it
// exits.
//
// Before every job the worker puts the process back into the state it started in
// (harness/process_state.h), sets its CPU-time limit to the job's own share and clears its
// breadcrumb; after every job it flushes the C and C++ streams and reports how far its resident
// memory has grown since it started, so the parent can recycle a worker a runtime leaks into.
//
// Result frame (native byte order: parent and worker are one binary on one machine):
//   "OGW2", kind (1 byte), job index (8), resident growth in bytes (8), payload length (8),
//   payload. kind: the job's payload; an exception's message; the message of an allocation that
//   failed (std::bad_alloc); or the job's payload after an allocation failed during the job (a
//   runtime that caught the std::bad_alloc itself, seen through a new-handler). After either of
//   the last two the parent retires the worker.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/worker.h"

namespace onnxgate {

enum class ResultKind : uint8_t {
  kPayload = 0,
  kException = 1,
  kOutOfMemory = 2,              // the job threw std::bad_alloc
  kPayloadAfterOutOfMemory = 3,  // the job returned, but an allocation failed on its way
};

struct ResultHeader {
  ResultKind kind = ResultKind::kPayload;
  uint64_t index = 0;
  uint64_t resident_growth = 0;
  uint64_t size = 0;
};

inline constexpr size_t kResultHeaderBytes = 4 + 1 + 8 + 8 + 8;

std::string EncodeResultHeader(const ResultHeader& header);
// False when `bytes` (of any length) cannot be the start of a result frame.
bool CouldStartAResultFrame(std::string_view bytes);
// False when `bytes` (at least kResultHeaderBytes) does not start a result frame.
bool DecodeResultHeader(std::string_view bytes, ResultHeader* header);

// What a worker needs from the parent at its fork.
struct WorkerSetup {
  const std::vector<Job>* jobs = nullptr;
  const WorkerOptions* options = nullptr;
  int slot = 0;
  int request_fd = -1;  // read end: job indices
  int result_fd = -1;   // write end: result frames
  pid_t parent = -1;
  std::vector<int> fds_to_close;  // the parent's descriptors of other workers, and its own ends
  char* breadcrumb = nullptr;     // the shared breadcrumb page of this worker, or null
};

// The forked worker's whole life; never returns.
[[noreturn]] void WorkerMain(const WorkerSetup& setup);

// Runs `job`, turning an escaping exception into its message; `memory_limit_bytes` (0: none)
// names the limit in the message of an allocation that failed.
ResultKind RunJobCatching(const Job& job, std::string* out, size_t memory_limit_bytes);

// Flushes std::cout, std::cerr, std::clog and every C stream.
void FlushAllStreams();

namespace worker_testing {
// The descriptor this worker writes its result frames to; -1 outside a worker. For tests whose
// jobs break the protocol on purpose. Not for use outside tests.
int CurrentResultFd();
}  // namespace worker_testing

}  // namespace onnxgate
