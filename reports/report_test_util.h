// A RunRecord with every verdict, placements, comparisons, latency results, matrix and coverage,
// for the tests of the report writers; and a shell runner for the tests that call xmllint.
#pragma once

#include <string>

#include "reports/records.h"

namespace onnxgate {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command, capturing its output.
CommandResult RunCommand(const std::string& command);

// Two suites ("onnx-node", "models"), one case per verdict, a multi-op model with fallback,
// four latency records (regression, unchanged, inconclusive, no-baseline), the matrix of the
// cases and the coverage of a few operators. Times have whole milliseconds so they survive the
// JSON round trip exactly.
RunRecord SampleRun();

// SampleRun stopped by SIGTERM: status interrupted, two cases not run (one in "models", one in
// "onnx-node" whose name needs escaping).
RunRecord InterruptedRun();

// SampleRun's header with two runtimes side by side (onnxgate on ref, onnxruntime on
// CPUExecutionProvider) and two cases on each: test_relu (Relu v14) passes on both, test_conv
// (Conv v11) fails on onnxgate and passes on onnxruntime; the matrix of those cases.
RunRecord SideBySideRun();

// SampleRun judged by a strict gate: the unexpected outcomes counted from its cases (FAILED),
// ref judged by conformance/expectations/ref.json (3 entries), dnnl by no file.
RunRecord FailedGateRun();
// FailedGateRun with only its passing and expected cases: PASSED.
RunRecord PassedGateRun();

// A run of users' models on ref: suite "zoo" with "mlp" passing by rtol/atol (12% of atol, 40%
// of rtol), "resnet18" failing at node relu_3 (Relu) with its output "logits" judged by metrics
// (cosine passing, top1 failing), "encoder" passing by a cosine threshold; a matrix of three
// cells on ref, the failing one Relu's; SampleRun's coverage.
RunRecord ModelRun();

// A failing output comparison of a float [2,3] output.
OutputComparison SampleFailingOutput();

}  // namespace onnxgate
