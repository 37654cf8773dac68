// The current time as a UTC ISO-8601 timestamp, for the `created` fields of goldens, baselines
// and reports.
#pragma once

#include <string>

namespace onnxgate {

// The current UTC time as "YYYY-MM-DDTHH:MM:SSZ".
std::string UtcNowIso8601();

}  // namespace onnxgate
