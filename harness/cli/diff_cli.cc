// `onnxgate diff <model> --runtime A ... --against B ...`: one model on two configurations, or
// `onnxgate diff <model> --against-model <other>`: two models on the same inputs; every output
// (and with --layerwise every intermediate value) compared, elementwise or by --metric thresholds
// (harness/models/model_diff.h).
#include <cstdio>
#include <sstream>

#include "harness/cli/cli.h"
#include "harness/cli/model_worker_flags.h"
#include "harness/models/model_diff.h"
#include "harness/models/model_feeds.h"

namespace onnxgate {

namespace {

struct SideFlags {
  RuntimeFlags runtime;
  LoadFlags load;
};

struct DiffFlags {
  DiffOptions options;
  SideFlags candidate;
  SideFlags reference;
  std::vector<std::string> dims;
  std::optional<double> rtol, atol;
  std::string json_path;
  std::vector<std::string> metrics;  // NAME=LIMIT
  std::optional<double> int_steps;
  bool verbose = false;
  ModelWorkerFlags worker;
};

// --metric, --int-steps and --top-k into `o`; false after printing the error.
bool MetricsFromFlags(const DiffFlags& f, DiffOptions* o) {
  std::vector<std::string> texts = f.metrics;
  if (f.int_steps) {
    std::ostringstream steps;
    steps << "int_steps=" << *f.int_steps;
    texts.push_back(steps.str());
  }
  auto thresholds = ParseMetricThresholds(texts, "--metric");
  if (!thresholds.ok()) {
    std::fprintf(stderr, "onnxgate diff: %s\n", thresholds.status().message().c_str());
    return false;
  }
  if (o->top_k < 0) {
    std::fprintf(stderr, "onnxgate diff: --top-k must be a positive number of classes, got %d\n",
                 o->top_k);
    return false;
  }
  o->metrics = *thresholds;
  return true;
}

// The side's runtime (null after an error is printed); `side` gets its load options and label.
std::unique_ptr<RuntimeUnderTest> MakeSide(const SideFlags& flags, const CliContext& ctx,
                                           DiffSide* side) {
  std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(flags.runtime, ctx, "diff");
  if (runtime == nullptr) return nullptr;
  side->runtime = runtime.get();
  side->load = LoadOptionsOf(*runtime, flags.load);
  side->label = ConfigurationLabel(flags.runtime.spec, side->load);
  return runtime;
}

int DiffCommand(DiffFlags& f, const CliContext& ctx) {
  DiffOptions o = f.options;
  auto dims = ParseFixedDimFlags(f.dims);
  if (!dims.ok()) {
    std::fprintf(stderr, "onnxgate diff: %s\n", dims.status().message().c_str());
    return 2;
  }
  o.dims = *dims;
  if (!ToleranceFromFlags(f.rtol, f.atol, "diff", &o.tolerance)) return 2;
  if (!MetricsFromFlags(f, &o)) return 2;
  if (!ModelWorkerOptionsFromFlags(f.worker, "diff", &o.worker)) return 2;
  if (f.reference.runtime.spec.empty()) f.reference.runtime.spec = f.candidate.runtime.spec;
  f.candidate.runtime.case_timeout_seconds = o.worker.timeout_s;
  f.reference.runtime.case_timeout_seconds = o.worker.timeout_s;
  DiffSide candidate, reference;
  auto candidate_runtime = MakeSide(f.candidate, ctx, &candidate);
  if (candidate_runtime == nullptr) return 2;
  auto reference_runtime = MakeSide(f.reference, ctx, &reference);
  if (reference_runtime == nullptr) return 2;
  auto diff = DiffModelOverDataset(candidate, reference, o);
  if (!diff.ok()) {
    std::fprintf(stderr, "onnxgate diff: %s\n", diff.status().message().c_str());
    return 2;
  }
  return FinishModelCommand("diff", {{&f.json_path, [&] { return RenderDatasetDiffJson(*diff); }}},
                            RenderDatasetDiffText(*diff, f.verbose), diff->passed());
}

}  // namespace

void AddDiffCommand(CLI::App& app, CliContext& ctx) {
  static DiffFlags f;
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Run one model on two configurations (--runtime/--ep/--optimization-level/--threads and\n"
      "--against/--against-ep/--against-optimization-level/--against-threads), or two models\n"
      "(--against-model: an INT8 model against its FP32 parent, a re-export against the last),\n"
      "on the same inputs and compare every output by name, elementwise or by --metric\n"
      "thresholds, on every data set of --input/--inputs-dir (the worst set named; any set\n"
      "that differs fails the verdict); --layerwise compares every intermediate value too (a "
      "quantized model's\n"
      "dequantized tensors against the float names they quantize), names the first node that\n"
      "diverges and the worst values by SQNR. Each side loads and runs its model in a worker "
      "process;\n"
      "a run that crashes or passes --timeout or --memory-limit is an error naming it.\n"
      "Exit 0: same; 1: different; 2: bad input, or a run that fails, crashes or hangs.");
  cmd->add_option("model", f.options.model_path, "The model (.onnx or .onnxtxt)")->required();
  AddRuntimeFlags(cmd, &f.candidate.runtime);
  AddLoadFlags(cmd, &f.candidate.load, "", "The candidate's ");
  f.reference.runtime.spec.clear();  // default: the candidate's runtime
  cmd->add_option("--against", f.reference.runtime.spec,
                  "The reference runtime, named like --runtime (default: the same runtime)");
  cmd->add_option("--against-option", f.reference.runtime.options,
                  "key=value passed to the --against runtime when it is created (repeatable)");
  AddLoadFlags(cmd, &f.reference.load, "against-", "The reference's ");
  cmd->add_option("--against-model", f.options.reference_model_path,
                  "The reference's model file (default: the same model); its outputs must match "
                  "the model's by name and shape");
  cmd->add_option("--metric", f.metrics,
                  "NAME=LIMIT (repeatable): judge each value a threshold applies to by it instead "
                  "of elementwise: cosine, sqnr_db, top<K> (lower bounds; top-k on outputs only), "
                  "max_abs, mean_abs, p99_abs, max_rel, mean_rel, p99_rel, int_steps (upper "
                  "bounds)");
  cmd->add_option("--top-k", f.options.top_k,
                  "Also report top-K agreement of the outputs (the last axis as classes)");
  cmd->add_option("--int-steps", f.int_steps,
                  "Integer values pass within this many steps (--metric int_steps=N)");
  cmd->add_option("--input", f.options.input_files,
                  "A data set (repeatable): a NumPy .npz with an array per input, or a folder of "
                  "ONNX TensorProto .pb files; .pb files given here make one data set together; "
                  "none: generated inputs. Every set is compared; the verdict fails if any does");
  cmd->add_option("--inputs-dir", f.options.inputs_dir,
                  "A folder whose every .npz and folder of .pb files is one more data set (in "
                  "name order)");
  cmd->add_option("--seed", f.options.seed, "Seed of generated inputs")->capture_default_str();
  cmd->add_option("--dim", f.dims, "NAME=SIZE for a named dynamic dimension (repeatable)");
  cmd->add_flag("--layerwise", f.options.layerwise,
                "Compare every intermediate value as well and name the first diverging node");
  cmd->add_option("--rtol", f.rtol, "rtol of every comparison (default 1e-3)");
  cmd->add_option("--atol", f.atol, "atol of every comparison (default 1e-7)");
  cmd->add_option("--json", f.json_path, "Write the comparison as JSON");
  cmd->add_flag("-v,--verbose", f.verbose,
                "With --layerwise, list every value compared (default: a summary)");
  AddModelWorkerFlags(cmd, &f.worker);
  cmd->callback([&ctx] { ctx.action = [&ctx] { return DiffCommand(f, ctx); }; });
}

}  // namespace onnxgate
