// `onnxgate sweep <model> --dim batch=1,4,16`: each row of every batched output against the run
// of that row alone, on one runtime and EP (harness/models/batch_sweep.h).
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/cli/model_worker_flags.h"
#include "harness/models/batch_sweep.h"
#include "harness/models/model_feeds.h"

namespace onnxgate {

namespace {

struct SweepFlags {
  BatchSweepOptions options;
  RuntimeFlags runtime;
  LoadFlags load;
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
  if (!ToleranceFromFlags(f.rtol, f.atol, "sweep", &o.tolerance)) return 2;
  if (!ModelWorkerOptionsFromFlags(f.worker, "sweep", &o.worker)) return 2;
  f.runtime.case_timeout_seconds = o.worker.timeout_s;
  std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(f.runtime, ctx, "sweep");
  if (runtime == nullptr) return 2;
  DiffSide side;
  side.runtime = runtime.get();
  side.load = LoadOptionsOf(*runtime, f.load);
  side.label = ConfigurationLabel(f.runtime.spec, side.load);
  auto sweep = SweepBatch(side, o);
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
      "Run a model with a dynamic dimension at several sizes (--dim batch=1,4,16) and check\n"
      "each row of every output against the run of that row alone on the same runtime.\n"
      "Each size runs in a worker process; one that crashes or passes --timeout or\n"
      "--memory-limit fails that size.\n"
      "Exit 0: every size gives each row's own result; 1: some does not; 2: bad input.");
  cmd->add_option("model", f.options.model_path, "The model (.onnx or .onnxtxt)")->required();
  AddRuntimeFlags(cmd, &f.runtime);
  AddLoadFlags(cmd, &f.load, "", "The ");
  cmd->add_option("--dim", f.dims,
                  "NAME=SIZE,SIZE...: the swept dimension; NAME=SIZE fixes another one "
                  "(repeatable)")
      ->required();
  cmd->add_option("--seed", f.options.seed, "Seed of generated inputs")->capture_default_str();
  cmd->add_option("--rtol", f.rtol, "rtol of every comparison (default 1e-3)");
  cmd->add_option("--atol", f.atol, "atol of every comparison (default 1e-7)");
  cmd->add_option("--json", f.json_path, "Write the sweep as JSON");
  AddModelWorkerFlags(cmd, &f.worker);
  cmd->callback([&ctx] { ctx.action = [&ctx] { return SweepCommand(f, ctx); }; });
}

}  // namespace onnxgate
