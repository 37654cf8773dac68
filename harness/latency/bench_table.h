// The bench's terminal table: one row per model x EP x thread count with load, first run and the
// steady-state statistics, plus the comparison with the baseline when there is one.
#pragma once

#include <string>
#include <vector>

#include "reports/records.h"

namespace onnxgate {

// A fixed-width table (columns sized to their contents) ending in a newline. The baseline
// columns appear when `with_comparison` is true.
std::string RenderBenchTable(const std::vector<LatencyRecord>& records, bool with_comparison);

// Milliseconds with three significant digits or more: "0.412", "12.3", "1234".
std::string FormatMs(double ms);

}  // namespace onnxgate
