// Rewriting an older golden in the current (checksummed) format, content unchanged.
#include "golden/golden_upgrade.h"

#include "golden/golden_checksum.h"
#include "golden/golden_file.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

StatusOr<GoldenUpgrade> UpgradeGolden(const std::string& path) {
  ONNXGATE_ASSIGN_OR_RETURN(GoldenFile old, ReadGolden(path));
  if (old.format_version >= 2) return GoldenUpgrade::kAlreadyCurrent;
  const std::string old_content = GoldenContentSha256(old);
  Status written = WriteThroughTempFile(path, [&](const std::string& temp) -> Status {
    ONNXGATE_RETURN_IF_ERROR(WriteGolden(temp, old));
    ONNXGATE_ASSIGN_OR_RETURN(GoldenFile back, ReadGolden(temp));
    if (GoldenContentSha256(back) != old_content) {
      return DataLoss(path + ": the rewritten golden does not read back as the original (content " +
                      GoldenContentSha256(back) + ", expected " + old_content +
                      "); the original is left unchanged");
    }
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(written);
  return GoldenUpgrade::kUpgraded;
}

}  // namespace onnxgate
