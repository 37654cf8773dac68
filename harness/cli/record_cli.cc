// `onnxgate record <model> --suite <name>`: a user's model, run on a trusted runtime and EP,
// becomes a suite case with its HDF5 golden (harness/models/recorder.h).
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/cli/model_worker_flags.h"
#include "harness/models/recorder.h"

namespace onnxgate {

namespace {

struct RecordFlags {
  RecordOptions options;
  RuntimeFlags runtime;
  LoadFlags load;
  std::vector<std::string> dims;
  std::vector<std::string> input_ranges;
  std::string layerwise_precision = "float32";
  ModelWorkerFlags worker;
};

// With expected outputs: how far the runtime that ran the sets is from them.
void PrintRuntimeDistance(const RecordReport& report) {
  std::printf("%s against %s (rtol %s, atol %s):\n", report.checked_on.c_str(),
              report.producer.c_str(), FormatShort(report.tolerance.rtol).c_str(),
              FormatShort(report.tolerance.atol).c_str());
  for (const std::string& line : DescribeRuntimeDistance(report)) {
    std::printf("  %s\n", line.c_str());
  }
  std::printf("  %s\n", report.runtime_outside_tolerance
                            ? "outside the case's tolerance: a gate on this runtime and EP fails "
                              "the case"
                            : "every output within the case's tolerance");
}

// "3.1 MiB".
std::string FormatMiB(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

// ", 48 intermediates per set (1 node in 4, float32 stored as float16)".
std::string LayerwiseSummary(const RecordReport& report, const RecordOptions& o) {
  std::string s = ", " + std::to_string(report.intermediates) + " intermediates per set";
  std::vector<std::string> how;
  if (o.layerwise_every > 1) how.push_back("1 node in " + std::to_string(o.layerwise_every));
  if (o.layerwise_float16) how.push_back("float32 stored as float16");
  for (size_t i = 0; i < how.size(); ++i) s += (i == 0 ? " (" : ", ") + how[i];
  return how.empty() ? s : s + ")";
}

int RecordCommand(RecordFlags& f, const CliContext& ctx) {
  auto dims = ParseDimFlags(f.dims);
  auto ranges = ParseInputRangeFlags(f.input_ranges);
  for (const Status& status : {dims.status(), ranges.status()}) {
    if (!status.ok()) {
      std::fprintf(stderr, "onnxgate record: %s\n", status.message().c_str());
      return 2;
    }
  }
  RecordOptions o = f.options;
  o.layerwise_float16 = f.layerwise_precision == "float16";
  o.input_ranges = std::move(ranges).value();
  if (!ModelWorkerOptionsFromFlags(f.worker, "record", &o.worker)) return 2;
  f.runtime.case_timeout_seconds = o.worker.timeout_s;
  std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(f.runtime, ctx, "record");
  if (runtime == nullptr) return 2;
  o.repo_root = ctx.root;
  o.dims = std::move(dims).value();
  o.runtime_spec = f.runtime.spec;
  o.load = LoadOptionsOf(*runtime, f.load);
  auto report = RecordCase(*runtime, o);
  if (!report.ok()) {
    std::fprintf(stderr, "onnxgate record: %s\n", report.status().message().c_str());
    return 2;
  }
  for (const std::string& warning : report->warnings) {
    std::fprintf(stderr, "onnxgate record: warning: %s\n", warning.c_str());
  }
  if (!report->runtime_distance.empty()) PrintRuntimeDistance(*report);
  if (report->replaced) {
    std::printf("%s: a golden exists (%s); the model %s\n", report->case_name.c_str(),
                report->golden_path.c_str(),
                report->model_changed ? "changed since it was recorded" : "is unchanged");
    if (!report->not_compared.empty()) {
      std::printf("  not compared: %s\n", report->not_compared.c_str());
    }
    for (const std::string& line : DescribeChanges(*report)) std::printf("  %s\n", line.c_str());
  }
  if (!report->written) {
    std::fprintf(stderr,
                 "onnxgate record: refused: the outputs of %s moved while its model did not "
                 "change; nothing was written (--force replaces the golden)\n",
                 report->case_name.c_str());
    return 1;
  }
  std::printf("recorded %s: %lld data set(s), outputs from %s\n", report->case_name.c_str(),
              static_cast<long long>(report->data_sets), report->producer.c_str());
  std::printf("  golden %s\n  suite  %s\n", report->golden_path.c_str(),
              report->suite_json.c_str());
  std::printf("golden: %s%s\n", FormatMiB(report->golden_bytes).c_str(),
              o.layerwise ? LayerwiseSummary(*report, o).c_str() : "");
  return 0;
}

}  // namespace

void AddRecordCommand(CLI::App& app, CliContext& ctx) {
  static RecordFlags f;
  CLI::App* cmd = app.add_subcommand(
      "record",
      "Run a model on a trusted runtime and EP and write it as a suite case: the model under\n"
      "suites/<suite>/models/, its outputs as golden/data/<suite>/<case>.h5, an entry in\n"
      "suite.json; each input set is a data set of the golden. With --expected the golden\n"
      "holds outputs computed elsewhere, checked against the model, and with --reference-model\n"
      "another model's outputs on the same data sets (an INT8 model's FP32 parent); how far the\n"
      "runtime's outputs are from them is printed. Re-recording compares with the old golden "
      "first. The\n"
      "model loads and runs in a worker process: a run that crashes or passes --timeout or\n"
      "--memory-limit is an error naming it, and nothing is written. Exit 0: recorded; 1:\n"
      "refused (outputs moved); 2: bad input, or a run that fails, crashes or hangs.");
  cmd->add_option("model", f.options.model_path,
                  "The model (.onnx or .onnxtxt), with its external data")
      ->required();
  cmd->add_option("--suite", f.options.suite_name, "Suite to write the case into")->required();
  cmd->add_option("--case", f.options.case_name, "Case name (default: the model file's name)");
  AddRuntimeFlags(cmd, &f.runtime);
  AddLoadFlags(cmd, &f.load, "", "The trusted ");
  cmd->add_option("--input", f.options.input_files,
                  "A data set (repeatable): a NumPy .npz with an array per input, or a folder of "
                  "ONNX TensorProto .pb files (bound by name, else by position); .pb files given "
                  "here make one data set together; none: generated inputs");
  cmd->add_option("--inputs-dir", f.options.inputs_dir,
                  "A folder of data sets: each .npz and each folder of .pb files in it is one, in "
                  "name order");
  cmd->add_option("--seed", f.options.seed, "Seed of generated inputs")->capture_default_str();
  cmd->add_option("--input-range", f.input_ranges,
                  "NAME=LO:HI: generated values of integer input NAME in [LO, HI) (repeatable; "
                  "over the model's metadata onnxgate.input_range.NAME)");
  cmd->add_option("--expected", f.options.expected_files,
                  "Expected outputs computed elsewhere (repeatable): one .npz per data set, an "
                  "array per output, paired with the data sets in order; they become the golden");
  cmd->add_option("--expected-dir", f.options.expected_dir,
                  "A folder of expected outputs: <set name>.npz for each data set");
  cmd->add_option("--reference-model", f.options.reference_model,
                  "A model whose outputs on the same data sets, on the same runtime and EP, "
                  "become the golden (outputs matched by name)");
  cmd->add_option("--producer", f.options.producer,
                  "Who computed the expected outputs (\"pytorch 2.5\"): the golden's producer");
  cmd->add_option("--dim", f.dims,
                  "NAME=SIZE[,SIZE...]: a named dynamic dimension's sizes (repeatable); with "
                  "generated inputs every combination is one data set");
  cmd->add_option("--rtol", f.options.rtol, "The case's rtol, written to suite.json");
  cmd->add_option("--atol", f.options.atol,
                  "The case's atol, written to suite.json (default: max(1e-7, 1e-6 x the "
                  "largest |output|), rounded up to one significant digit)");
  cmd->add_flag("--force", f.options.force,
                "Replace the golden even when the model is unchanged and its outputs moved");
  cmd->add_flag("--layerwise", f.options.layerwise,
                "Also store every intermediate value, so that a gate names the first node of a "
                "failing case whose value departs from them");
  cmd->add_option("--layerwise-every", f.options.layerwise_every,
                  "With --layerwise, store the intermediate values of every Nth node in node "
                  "order (and of the last) only: a smaller golden; a failure between kept nodes "
                  "is attributed to that span")
      ->capture_default_str();
  cmd->add_option("--layerwise-precision", f.layerwise_precision,
                  "With --layerwise, float16 stores float32 intermediate values as float16 (half "
                  "the size; the gate then compares them with rtol >= 1e-3)")
      ->check(CLI::IsMember({"float32", "float16"}))
      ->capture_default_str();
  cmd->add_option("--created", f.options.created,
                  "UTC time written into the golden (fixed value: byte-identical records)");
  AddModelWorkerFlags(cmd, &f.worker);
  cmd->callback([&ctx] { ctx.action = [&ctx] { return RecordCommand(f, ctx); }; });
}

}  // namespace onnxgate
