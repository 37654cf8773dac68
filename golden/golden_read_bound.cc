// ReadGoldenBounded: a golden read under a temporary soft RLIMIT_AS.
#include "golden/golden_read_bound.h"

#include <sys/resource.h>

#include <fstream>

namespace onnxgate {

uint64_t CurrentAddressSpaceBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmSize:", 0) != 0) continue;
    uint64_t kib = 0;
    for (char c : line.substr(7)) {
      if (c >= '0' && c <= '9') kib = kib * 10 + static_cast<uint64_t>(c - '0');
    }
    return kib * 1024;
  }
  return 0;
}

ScopedAddressSpaceBound::ScopedAddressSpaceBound(uint64_t extra_bytes) {
  const uint64_t now = CurrentAddressSpaceBytes();
  struct rlimit limit;
  if (now == 0 || ::getrlimit(RLIMIT_AS, &limit) != 0) return;
  uint64_t bound = now + extra_bytes;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < bound) bound = limit.rlim_max;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur <= bound) return;
  previous_soft_ = limit.rlim_cur;
  limit.rlim_cur = bound;
  active_ = ::setrlimit(RLIMIT_AS, &limit) == 0;
}

ScopedAddressSpaceBound::~ScopedAddressSpaceBound() {
  if (!active_) return;
  struct rlimit limit;
  if (::getrlimit(RLIMIT_AS, &limit) != 0) return;
  limit.rlim_cur = previous_soft_;
  ::setrlimit(RLIMIT_AS, &limit);
}

StatusOr<GoldenFile> ReadGoldenBounded(const std::string& path, uint64_t extra_bytes) {
  ScopedAddressSpaceBound bound(extra_bytes);
  return ReadGolden(path);
}

}  // namespace onnxgate
