// Sample records for the report writer tests.
#include "reports/report_test_util.h"

#include <sys/wait.h>

#include <cstdio>
#include <limits>

namespace onnxgate {
namespace {

CaseRecord Case(const std::string& suite, const std::string& name, const std::string& op,
                const std::string& ep, Verdict verdict) {
  CaseRecord c;
  c.suite = suite;
  c.name = name;
  c.op_types = {op};
  c.opset_imports = {{"", 13}};
  c.op_versions = {{op, 13}};
  c.ep = ep;
  c.verdict = verdict;
  c.outcome = verdict;
  c.duration_s = 0.25;
  c.placements = {{"node0", op, ep, {}, ""}};
  c.reproducer = "onnxgate run --suite " + suite + " --case " + name + " --ep " + ep;
  return c;
}

MatrixCell Cell(const std::string& op, int64_t version, const std::string& ep, Verdict verdict,
                std::vector<std::string> failing = {}) {
  MatrixCell cell;
  cell.op = op;
  cell.since_version = version;
  cell.ep = ep;
  cell.counts[verdict] = 1;
  cell.failing_cases = std::move(failing);
  return cell;
}

}  // namespace

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), pipe)) > 0) result.output.append(buf, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

RunRecord FailedGateRun() {
  RunRecord run = SampleRun();
  GateRecord gate;
  gate.strict = true;
  gate.unexpected = CountUnexpected(run.cases, gate.strict);
  gate.passed = gate.unexpected.total() == 0;
  gate.expectations.push_back({"", "ref", "conformance/expectations/ref.json", true, 3});
  gate.expectations.push_back({"", "dnnl", "conformance/expectations/dnnl.json", false, 0});
  run.gate = gate;
  return run;
}

RunRecord PassedGateRun() {
  RunRecord run = FailedGateRun();
  std::vector<CaseRecord> kept;
  for (const CaseRecord& c : run.cases) {
    if (!IsUnexpected(c, true)) kept.push_back(c);
  }
  run.cases = kept;
  run.matrix.clear();
  run.gate->unexpected = CountUnexpected(run.cases, true);
  run.gate->passed = true;
  return run;
}

OutputComparison SampleFailingOutput() {
  OutputComparison o;
  o.output_name = "y";
  o.set_index = 0;
  o.dtype = "float";
  o.expected_shape = {2, 3};
  o.actual_shape = {2, 3};
  o.passed = false;
  o.rtol = 1e-3;
  o.atol = 1e-7;
  o.max_abs_error = 0.5;
  o.max_rel_error = 0.25;
  o.mismatch_count = 2;
  o.mismatch_share = 2.0 / 6.0;
  o.total_elements = 6;
  o.worst_index = 4;
  o.worst_index_nd = {1, 1};
  o.worst_expected = "2";
  o.worst_actual = "2.5";
  o.min_passing_rtol = 0.25;
  o.min_passing_atol = 0.5;
  return o;
}

RunRecord SampleRun() {
  RunRecord run;
  run.tool_version = "0.1.0";
  run.runtime_name = "onnxgate-builtin";
  run.runtime_version = "0.1.0";
  run.start_time = UtcTime(std::chrono::milliseconds(1714558830123));  // 2024-05-01T10:20:30.123Z
  run.end_time = run.start_time + std::chrono::milliseconds(12500);
  run.duration_s = 12.5;
  run.command_line = {"onnxgate", "run", "--suite", "onnx-node", "--ep", "ref,dnnl"};
  run.host = {"ci-runner-7", "Linux 6.1", "Intel Xeon", 16};
  run.suites = {"onnx-node", "models"};
  run.selection = {"test_*", {"ref", "dnnl"}, 1, 4};

  run.cases.push_back(Case("onnx-node", "test_relu", "Relu", "ref", Verdict::kPass));

  CaseRecord fail = Case("onnx-node", "test_conv_with_strides", "Conv", "dnnl", Verdict::kFail);
  fail.op_versions = {{"Conv", 11}};
  fail.message = "output y differs";
  OutputComparison ok_output = SampleFailingOutput();
  ok_output.output_name = "z";
  ok_output.passed = true;
  fail.outputs = {SampleFailingOutput(), ok_output};
  OutputComparison nan_output = SampleFailingOutput();
  nan_output.output_name = "w";
  nan_output.worst_expected = "nan";
  nan_output.worst_actual = "1";
  nan_output.max_abs_error = std::numeric_limits<double>::infinity();
  nan_output.min_passing_rtol = std::numeric_limits<double>::infinity();
  nan_output.min_passing_atol = std::numeric_limits<double>::infinity();
  fail.outputs.push_back(nan_output);
  run.cases.push_back(fail);

  CaseRecord crash = Case("onnx-node", "test_gather_negative", "Gather", "dnnl", Verdict::kCrash);
  // A worker's last words: terminal colour codes, control characters and broken UTF-8.
  crash.message = std::string(
      "worker died: SIGSEGV \x1b[31mred\x1b[0m \x01\x02 bad \xff\xfe utf8 "
      "<&\"'> caf\xc3\xa9 \xe0\x80 end");
  run.cases.push_back(crash);

  CaseRecord unsupported = Case("onnx-node", "test_loop11", "Loop", "dnnl", Verdict::kUnsupported);
  unsupported.outcome = Verdict::kUnsupported;
  unsupported.expectation_reason = "dnnl has no control flow";
  unsupported.message = "no kernel for Loop(11)";
  unsupported.placements.clear();
  run.cases.push_back(unsupported);

  CaseRecord xfail = Case("onnx-node", "test_softmax_large", "Softmax", "dnnl", Verdict::kXfail);
  xfail.outcome = Verdict::kFail;
  xfail.expectation_reason = "known drift in exp, issue 12";
  xfail.message = "output y differs";
  xfail.outputs = {SampleFailingOutput()};
  run.cases.push_back(xfail);

  CaseRecord timeout =
      Case("onnx-node", "test_nms_huge", "NonMaxSuppression", "ref", Verdict::kTimeout);
  timeout.message = "no result after 60 s";
  run.cases.push_back(timeout);

  CaseRecord unresolved = Case("onnx-node", "test_stale", "Add", "ref", Verdict::kUnresolved);
  unresolved.message = "golden golden/data/onnx-node/test_stale.h5 is stale: model_sha256 differs";
  run.cases.push_back(unresolved);

  CaseRecord xpass = Case("onnx-node", "test_erf", "Erf", "dnnl", Verdict::kXpass);
  xpass.outcome = Verdict::kPass;
  xpass.expectation_reason = "erf approximation too coarse";
  run.cases.push_back(xpass);

  CaseRecord skip = Case("onnx-node", "test_pipe|name", "Identity", "ref", Verdict::kSkip);
  skip.message = "filtered by tag";
  skip.placements.clear();
  run.cases.push_back(skip);

  CaseRecord model = Case("models", "mlp_b8", "MatMul", "dnnl", Verdict::kPass);
  model.op_types = {"MatMul", "Add", "Relu"};
  model.opset_imports = {{"", 17}, {"com.microsoft", 1}};
  model.op_versions = {{"MatMul", 13}, {"Add", 14}, {"Relu", 14}};
  model.placements = {
      {"mm0", "MatMul", "dnnl", {}, "mm0+add0"},
      {"add0", "Add", "dnnl", {}, "mm0+add0"},
      {"relu0", "Relu", "ref", {{"dnnl", "no kernel for Relu(14) with type double"}}, ""}};
  run.cases.push_back(model);

  LatencyRecord regression;
  regression.model = "resnet_small";
  regression.ep = "dnnl";
  regression.threads = 4;
  regression.repetitions = 15;
  regression.median_ms = 12.3;
  regression.min_ms = 11.9;
  regression.p90_ms = 12.9;
  regression.p99_ms = 13.4;
  regression.mean_ms = 12.4;
  regression.cv = 0.02;
  regression.load_ms = 40.0;
  regression.first_run_ms = 30.5;
  regression.baseline_median_ms = 10.1;
  regression.change_ratio = 12.3 / 10.1 - 1.0;
  regression.threshold = 0.1;
  regression.p_value = 0.0001;
  regression.verdict = LatencyVerdict::kRegression;
  regression.message = "median moved beyond the threshold";
  run.latency.push_back(regression);

  LatencyRecord unchanged = regression;
  unchanged.model = "mlp";
  unchanged.median_ms = 1.01;
  unchanged.baseline_median_ms = 1.0;
  unchanged.change_ratio = 0.01;
  unchanged.p_value = 0.4;
  unchanged.verdict = LatencyVerdict::kUnchanged;
  unchanged.message = "";
  run.latency.push_back(unchanged);

  LatencyRecord inconclusive = unchanged;
  inconclusive.model = "mobilenet";
  inconclusive.cv = 0.3;
  inconclusive.change_ratio = 0.2;
  inconclusive.verdict = LatencyVerdict::kInconclusive;
  run.latency.push_back(inconclusive);

  LatencyRecord fresh;
  fresh.model = "encoder";
  fresh.ep = "ref";
  fresh.repetitions = 9;
  fresh.median_ms = 5.5;
  fresh.verdict = LatencyVerdict::kNoBaseline;
  run.latency.push_back(fresh);

  // The matrix of the cases above, as the conformance library computes it.
  run.matrix = {
      Cell("Add", 13, "ref", Verdict::kUnresolved, {"test_stale"}),
      Cell("Add", 14, "dnnl", Verdict::kPass),
      Cell("Conv", 11, "dnnl", Verdict::kFail, {"test_conv_with_strides"}),
      Cell("Erf", 13, "dnnl", Verdict::kXpass, {"test_erf"}),
      Cell("Gather", 13, "dnnl", Verdict::kCrash, {"test_gather_negative"}),
      Cell("Identity", 13, "ref", Verdict::kSkip),
      Cell("Loop", 13, "dnnl", Verdict::kUnsupported),
      Cell("MatMul", 13, "dnnl", Verdict::kPass),
      Cell("NonMaxSuppression", 13, "ref", Verdict::kTimeout, {"test_nms_huge"}),
      Cell("Relu", 13, "ref", Verdict::kPass),
      Cell("Relu", 14, "dnnl", Verdict::kPass),
      Cell("Softmax", 13, "dnnl", Verdict::kXfail),
  };
  // A few operators of the registry: fully, partly and not covered.
  run.coverage = {
      {"Abs", {}, {1, 6, 13}},
      {"Add", {13, 14}, {1, 6, 7}},
      {"Conv", {11}, {1}},
      {"MatMul", {13}, {1, 9}},
      {"Relu", {13, 14}, {1, 6}},
      {"Softmax", {13}, {1, 11}},
      {"ai.onnx.ml.LabelEncoder", {}, {1, 2}},
  };

  run.end_time = run.start_time + std::chrono::milliseconds(12500);
  run.totals = CountVerdicts(run.cases);
  return run;
}

RunRecord InterruptedRun() {
  RunRecord run = SampleRun();
  run.status = RunStatus::kInterrupted;
  run.status_message = "interrupted by SIGTERM: 10 of 12 selected case(s) x EP finished, 2 not run";
  NotRunRecord relu;
  relu.suite = "onnx-node";
  relu.name = "test_relu<&\"'>";
  relu.op_types = {"Relu"};
  relu.ep = "ref";
  relu.reason = "not run: the run was interrupted by SIGTERM while it was running";
  relu.reproducer = "onnxgate run --suite onnx-node --filter 'test_relu<&\"'\\''>' --ep ref";
  NotRunRecord model;
  model.suite = "models";
  model.name = "mobilenet";
  model.op_types = {"Conv", "Relu"};
  model.ep = "dnnl";
  model.reason = "not run: the run was interrupted by SIGTERM";
  model.reproducer = "onnxgate run --suite models --filter mobilenet --ep dnnl";
  run.not_run = {relu, model};
  return run;
}

RunRecord SideBySideRun() {
  RunRecord run = SampleRun();
  run.runtimes = {{"onnxgate", "onnxgate", "0.1.0", "builtin"},
                  {"onnxruntime", "onnxruntime", "1.31.1", "ort"}};
  run.selection.eps = {"ref", "CPUExecutionProvider"};
  // The same two cases on both runtimes: Relu passes on both, Conv only on onnxruntime.
  CaseRecord relu = run.cases[0], conv = run.cases[0];
  relu.name = "test_relu";
  relu.op_versions = {{"Relu", 14}};
  conv.name = "test_conv";
  conv.op_versions = {{"Conv", 11}};
  run.cases.clear();
  run.matrix.clear();
  for (const char* runtime : {"onnxgate", "onnxruntime"}) {
    relu.runtime = conv.runtime = runtime;
    relu.ep = conv.ep = std::string(runtime) == "onnxgate" ? "ref" : "CPUExecutionProvider";
    relu.verdict = Verdict::kPass;
    conv.verdict = std::string(runtime) == "onnxgate" ? Verdict::kFail : Verdict::kPass;
    run.cases.push_back(relu);
    run.cases.push_back(conv);
    for (const CaseRecord& c : {relu, conv}) {
      MatrixCell cell;
      cell.op = c.op_versions.begin()->first;
      cell.since_version = c.op_versions.begin()->second;
      cell.runtime = c.runtime;
      cell.ep = c.ep;
      cell.counts[c.verdict] = 1;
      run.matrix.push_back(cell);
    }
  }
  return run;
}

RunRecord ModelRun() {
  RunRecord run = SampleRun();
  run.suites = {"zoo"};
  run.selection = {"", {"ref"}, 0, 1};
  run.latency.clear();
  run.cases.clear();

  CaseRecord mlp = Case("zoo", "mlp", "Gemm", "ref", Verdict::kPass);
  mlp.op_types = {"Gemm", "Relu"};
  OutputComparison y = SampleFailingOutput();
  y.passed = true;
  y.rtol = 1e-3;
  y.atol = 1e-4;
  y.max_abs_error = 2e-5;
  y.min_passing_atol = 1.2e-5;
  y.min_passing_rtol = 4e-4;
  mlp.outputs = {y};
  run.cases.push_back(mlp);

  CaseRecord resnet = Case("zoo", "resnet18", "Conv", "ref", Verdict::kFail);
  resnet.op_types = {"Conv", "Relu", "Add", "GlobalAveragePool", "Gemm"};
  resnet.message = "judged by metrics: top1 0.9 (>= 0.99, FAILS by 0.09)";
  OutputComparison logits = SampleFailingOutput();
  logits.output_name = "logits";
  logits.metrics = {{"cosine", 0.9991, 0.999, true, true, 0.0001},
                    {"top1", 0.9, 0.99, true, false, -0.09}};
  resnet.outputs = {logits};
  DivergenceRecord divergence;
  divergence.node = "relu_3";
  divergence.op = "Relu";
  divergence.value = "y3";
  divergence.max_abs_error = 0.5;
  divergence.max_rel_error = 1;
  resnet.first_divergence = divergence;
  run.cases.push_back(resnet);

  CaseRecord encoder = Case("zoo", "encoder", "MatMul", "ref", Verdict::kPass);
  encoder.op_types = {"MatMul", "Softmax", "LayerNormalization"};
  OutputComparison hidden = SampleFailingOutput();
  hidden.output_name = "hidden";
  hidden.passed = true;
  hidden.metrics = {{"cosine", 0.99995, 0.9999, true, true, 0.00005}};
  encoder.outputs = {hidden};
  run.cases.push_back(encoder);

  // The matrix blames the diverging node's op alone.
  run.matrix = {Cell("Gemm", 13, "ref", Verdict::kPass), Cell("MatMul", 13, "ref", Verdict::kPass),
                Cell("Relu", 14, "ref", Verdict::kFail, {"resnet18"})};
  return run;
}

}  // namespace onnxgate
