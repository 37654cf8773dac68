// A golden read with a memory bound of its own. libhdf5 1.10.8 allocates without bound on some
// corrupted files (docs/fuzzing.md lists the inputs), before onnxgate's declared-size checks
// (golden/golden_limits.h) can see what it asks for. In a gate the golden is read inside the
// case's worker process; this bounds that read even when the worker has no memory limit
// (`--memory-limit 0`) or a large one, so such a golden is that case's UNRESOLVED or CRASH, never
// an out-of-memory machine.
#pragma once

#include <cstdint>
#include <string>

#include "golden/golden_file.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The address space a golden read may add to its process: room for a golden at its limits (the
// file's bytes, libhdf5's copy of them and 1 GiB of tensors) and libhdf5's own caches.
inline constexpr uint64_t kGoldenReadAddressSpaceBytes = uint64_t{4} << 30;

// While alive, the process's soft RLIMIT_AS is at most its address space at construction plus
// `extra_bytes` (an existing lower soft limit stays); the previous soft limit comes back on
// destruction. Process-wide: meant for a worker process that reads one golden at a time.
class ScopedAddressSpaceBound {
 public:
  explicit ScopedAddressSpaceBound(uint64_t extra_bytes);
  ~ScopedAddressSpaceBound();
  ScopedAddressSpaceBound(const ScopedAddressSpaceBound&) = delete;
  ScopedAddressSpaceBound& operator=(const ScopedAddressSpaceBound&) = delete;

  // Whether a bound was set (false when /proc/self/status or setrlimit was unavailable, or the
  // existing limit was already lower).
  bool active() const { return active_; }

 private:
  bool active_ = false;
  uint64_t previous_soft_ = 0;
};

// The address space of this process in bytes (VmSize); 0 when it cannot be read.
uint64_t CurrentAddressSpaceBytes();

// ReadGolden(path) under ScopedAddressSpaceBound(extra_bytes): an allocation past the bound
// fails inside the read (Unavailable "out of memory while reading the golden", or libhdf5's own
// DataLoss) instead of growing the process.
StatusOr<GoldenFile> ReadGoldenBounded(const std::string& path,
                                       uint64_t extra_bytes = kGoldenReadAddressSpaceBytes);

}  // namespace onnxgate
