// `onnxgate sweep <model> --dim batch=1,4,16`: each row of every batched output against the run
// of that row alone, on one runtime and EP (harness/models/batch_sweep.h); with --against, or over
// a dimension that is not the batch, each size against a reference configuration at that size
// (harness/models/reference_sweep.h) or the golden's data set at that size (golden_sweep.h).
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/cli/model_worker_flags.h"
#include "harness/models/batch_sweep.h"
#include "harness/models/golden_sweep.h"
#include "harness/models/model_feeds.h"
#include "harness/models/reference_sweep.h"

namespace onnxgate {

namespace {

struct SweepFlags {
  BatchSweepOptions options;
  RuntimeFlags runtime;
  LoadFlags load;
  RuntimeFlags against;
  LoadFlags against_load;
  bool against_given = false;  // some --against* flag was given
  std::string golden_path;
  std::string batch_dim;
  std::vector<std::string> dims;
  std::optional<double> rtol, atol;
  std::string json_path;
  ModelWorkerFlags worker;
};

int SweepCommand(SweepFlags& f, const CliContext& ctx) {
  BatchSweepOptions o = f.options;
  auto dims = ParseDimFlags(f.dims);
  if (!dims.ok()) {
    std::fprintf(stderr, "onnxgate sweep: %s\n", dims.status().message().c_str());
    return 2;
  }
  for (const auto& [name, sizes] : *dims) {
    if (sizes.size() == 1) {
      o.other_dims[name] = sizes.front();
    } else if (o.dim.empty()) {
      o.dim = name;
      o.sizes = sizes;
    } else {
      std::fprintf(stderr, "onnxgate sweep: sweep one dimension at a time (%s and %s)\n",
                   o.dim.c_str(), name.c_str());
      return 2;
    }
  }
  if (o.dim.empty()) {
    std::fprintf(stderr,
                 "onnxgate sweep: name the swept dimension with two or more sizes, "
                 "e.g. --dim batch=1,4,16\n");
    return 2;
  }
  if (f.against_given && !f.golden_path.empty()) {
    std::fprintf(stderr, "onnxgate sweep: compare with --against* or with --golden, not both\n");
    return 2;
  }
  if (!f.against_given && f.golden_path.empty() && !IsBatchDimension(o.dim, f.batch_dim)) {
    std::fprintf(stderr,
                 "onnxgate sweep: '%s' is not the batch dimension (%s), so its positions may mix "
                 "and rows cannot be checked alone: give a reference to compare each size with, "
                 "--against RUNTIME and/or --against-ep EP (e.g. --against builtin --against-ep "
                 "ref) or --golden FILE.h5 recorded at those sizes, or --batch-dim %s if it is "
                 "the batch\n",
                 o.dim.c_str(),
                 f.batch_dim.empty() ? "named batch, batch_size or N, or by --batch-dim"
                                     : ("--batch-dim " + f.batch_dim).c_str(),
                 o.dim.c_str());
    return 2;
  }
  if (!ToleranceFromFlags(f.rtol, f.atol, "sweep", &o.tolerance)) return 2;
  if (!ModelWorkerOptionsFromFlags(f.worker, "sweep", &o.worker)) return 2;
  f.runtime.case_timeout_seconds = o.worker.timeout_s;
  std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(f.runtime, ctx, "sweep");
  if (runtime == nullptr) return 2;
  DiffSide side;
  side.runtime = runtime.get();
  side.load = LoadOptionsOf(*runtime, f.load);
  side.label = ConfigurationLabel(f.runtime.spec, side.load);
  std::unique_ptr<RuntimeUnderTest> against_runtime;
  DiffSide reference;
  if (f.against_given) {
    if (f.against.spec.empty()) f.against.spec = f.runtime.spec;
    f.against.case_timeout_seconds = o.worker.timeout_s;
    against_runtime = CreateRuntimeOrReport(f.against, ctx, "sweep");
    if (against_runtime == nullptr) return 2;
    reference.runtime = against_runtime.get();
    reference.load = LoadOptionsOf(*against_runtime, f.against_load);
    reference.label = ConfigurationLabel(f.against.spec, reference.load);
  }
  StatusOr<BatchSweepRecord> sweep = Unavailable("not swept");
  if (f.against_given) {
    sweep = SweepAgainstReference(side, reference, o);
  } else if (!f.golden_path.empty()) {
    sweep = SweepAgainstGolden(side, f.golden_path, o);
  } else {
    sweep = SweepBatch(side, o);
  }
  if (!sweep.ok()) {
    std::fprintf(stderr, "onnxgate sweep: %s\n", sweep.status().message().c_str());
    return 2;
  }
  return FinishModelCommand("sweep", {{&f.json_path, [&] { return RenderBatchSweepJson(*sweep); }}},
                            RenderBatchSweepText(*sweep), sweep->passed());
}

}  // namespace

void AddSweepCommand(CLI::App& app, CliContext& ctx) {
  static SweepFlags f;
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Run a model with a dynamic dimension at several sizes (--dim batch=1,4,16). Over the\n"
      "batch dimension (named batch, batch_size or N, or by --batch-dim) each row of every\n"
      "output is checked against the run of that row alone on the same runtime. With --against\n"
      "(or --against-ep ...) each size is compared with that reference configuration at the\n"
      "same size instead, or with --golden with the golden's data set at that size: one of\n"
      "them is required for any other dimension (a sequence, an image size).\n"
      "Each size runs in a worker process; one that crashes or passes --timeout or\n"
      "--memory-limit fails that size.\n"
      "Exit 0: every size gives the expected result; 1: some does not; 2: bad input.");
  cmd->add_option("model", f.options.model_path, "The model (.onnx or .onnxtxt)")->required();
  AddRuntimeFlags(cmd, &f.runtime);
  AddLoadFlags(cmd, &f.load, "", "The ");
  f.against.spec.clear();  // default: the runtime under test
  cmd->add_option("--against", f.against.spec,
                  "Compare each size with this reference runtime at that size, named like "
                  "--runtime (default with another --against-* flag: the same runtime)");
  cmd->add_option("--against-option", f.against.options,
                  "key=value passed to the --against runtime when it is created (repeatable)");
  AddLoadFlags(cmd, &f.against_load, "against-", "The reference's ");
  cmd->add_option("--golden", f.golden_path,
                  "Compare each size with the data set of this golden (.h5, recorded from the "
                  "same model with record --dim) at that size, fed its inputs");
  cmd->add_option("--batch-dim", f.batch_dim,
                  "The name of the batch dimension, checked row by row (default: batch, "
                  "batch_size or N, in any case)");
  cmd->add_option("--dim", f.dims,
                  "NAME=SIZE,SIZE...: the swept dimension; NAME=SIZE fixes another one "
                  "(repeatable)")
      ->required();
  cmd->add_option("--seed", f.options.seed, "Seed of generated inputs")->capture_default_str();
  cmd->add_option("--rtol", f.rtol, "rtol of every comparison (default 1e-3)");
  cmd->add_option("--atol", f.atol, "atol of every comparison (default 1e-7)");
  cmd->add_option("--json", f.json_path, "Write the sweep as JSON");
  AddModelWorkerFlags(cmd, &f.worker);
  cmd->callback([cmd, &ctx] {
    f.against_given = false;
    for (const char* flag : {"--against", "--against-option", "--against-ep",
                             "--against-optimization-level", "--against-threads"}) {
      f.against_given = f.against_given || cmd->count(flag) > 0;
    }
    ctx.action = [&ctx] { return SweepCommand(f, ctx); };
  });
}

}  // namespace onnxgate
