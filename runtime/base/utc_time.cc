// UtcNowIso8601 on gmtime_r and strftime.
#include "runtime/base/utc_time.h"

#include <ctime>

namespace onnxgate {

std::string UtcNowIso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

}  // namespace onnxgate
