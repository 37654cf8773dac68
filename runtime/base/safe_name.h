// Names that become one component of a file path (an EP's expectation file, a suite's folder, a
// baseline file): they must not climb out of their folder or hide in it.
#pragma once

#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

// OK for 1 to 128 characters of [A-Za-z0-9._+-] that do not start with '.' or '-' (so no
// "..", no hidden file, nothing an option parser takes for a flag). Otherwise InvalidArgument:
// "<kind> name '<name>' ...", with the name's control characters escaped.
Status CheckSafeName(const std::string& kind, const std::string& name);

}  // namespace onnxgate
