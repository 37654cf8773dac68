// Rewrites a golden of an older format (format 1: no checksums) in the format WriteGolden writes
// now, with the same content and provenance: producer, model hashes, opset imports, `created`,
// `source` and every value bit for bit. Used to move committed goldens to the checksummed format
// (the onnxgate-upgrade-golden tool) without recomputing their outputs.
#pragma once

#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

enum class GoldenUpgrade {
  kUpgraded,        // the file was rewritten in the current format
  kAlreadyCurrent,  // it already had checksums (format 2 or later): left as it was
};

// Reads the golden at `path` (ReadGolden: a corrupt or unreadable golden is refused with its
// error), and when its format predates checksums writes it again through WriteGolden (a temporary
// file and a rename). Before the rename takes effect the written file is read back and its
// content checksum compared with the one of what was read, so a value that would not survive the
// rewrite unchanged fails the upgrade (DataLoss) and leaves the original in place.
StatusOr<GoldenUpgrade> UpgradeGolden(const std::string& path);

}  // namespace onnxgate
