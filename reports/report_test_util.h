// A RunRecord with every verdict, placements, comparisons and latency results, for the tests of
// the report writers.
#pragma once

#include "reports/records.h"

namespace onnxgate {

// Two suites ("onnx-node", "models"), one case per verdict, a multi-op model with fallback,
// and four latency records (regression, unchanged, inconclusive, no-baseline). Times have whole
// milliseconds so they survive the JSON round trip exactly.
RunRecord SampleRun();

// A failing output comparison of a float [2,3] output.
OutputComparison SampleFailingOutput();

}  // namespace onnxgate
