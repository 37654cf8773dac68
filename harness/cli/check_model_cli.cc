// `onnxgate check-model <model> --runtime R --ep E...`: a preflight of a model against a runtime
// and its EPs, without goldens (harness/models/model_check.h).
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/cli/model_worker_flags.h"
#include "harness/models/model_check.h"
#include "harness/models/model_feeds.h"

namespace onnxgate {

namespace {

struct CheckModelFlags {
  ModelCheckOptions options;
  RuntimeFlags runtime;
  std::string fallback = "allow";
  std::vector<std::string> dims;
  int target_opset = 0;
  std::string json_path, junit_path, markdown_path;
  ModelWorkerFlags worker;
};

int CheckModelCommand(CheckModelFlags& f, const CliContext& ctx) {
  ModelCheckOptions o = f.options;
  auto fallback = FallbackPolicyFromName(f.fallback);
  auto dims = ParseFixedDimFlags(f.dims);
  if (!fallback.ok() || !dims.ok()) {
    std::fprintf(stderr, "onnxgate check-model: %s\n",
                 (!fallback.ok() ? fallback.status() : dims.status()).message().c_str());
    return 2;
  }
  o.fallback = *fallback;
  o.dims = *dims;
  if (f.target_opset > 0) o.target_opset = f.target_opset;
  if (!ModelWorkerOptionsFromFlags(f.worker, "check-model", &o.worker)) return 2;
  f.runtime.case_timeout_seconds = o.worker.timeout_s;
  std::unique_ptr<RuntimeUnderTest> runtime = CreateRuntimeOrReport(f.runtime, ctx, "check-model");
  if (runtime == nullptr) return 2;
  DefaultToFirstProvider(*runtime, &o.eps);
  // The original model of a conversion runs on the built-in runtime's ref when the runtime under
  // test cannot load it.
  std::unique_ptr<RuntimeUnderTest> builtin;
  const RuntimeUnderTest* reference = nullptr;
  if (o.target_opset) {
    if (f.runtime.spec == kBuiltinRuntimeSpec) {
      reference = runtime.get();
    } else {
      builtin = CreateRuntimeOrReport(RuntimeFlags{}, ctx, "check-model");
      if (builtin == nullptr) return 2;
      reference = builtin.get();
    }
  }
  auto check = CheckModel(*runtime, reference, o);
  if (!check.ok()) {
    std::fprintf(stderr, "onnxgate check-model: %s\n", check.status().message().c_str());
    return 2;
  }
  return FinishModelCommand("check-model",
                            {{&f.json_path, [&] { return RenderModelCheckJson(*check); }},
                             {&f.junit_path, [&] { return RenderModelCheckJunit(*check); }},
                             {&f.markdown_path, [&] { return RenderModelCheckMarkdown(*check); }}},
                            RenderModelCheckText(*check), check->passed());
}

}  // namespace

void AddCheckModelCommand(CLI::App& app, CliContext& ctx) {
  static CheckModelFlags f;
  CLI::App* cmd = app.add_subcommand(
      "check-model",
      "Preflight a model against a runtime and EPs, without goldens: IR version and opsets\n"
      "accepted, every node's op version and placement with decline reasons, fallback nodes,\n"
      "op versions no provider claims, and optionally a conversion to another opset.\n"
      "The load and the conversion's run happen in a worker process: one that crashes or\n"
      "passes --timeout or --memory-limit is a problem of the check, naming it.\n"
      "Exit 0: it runs as asked; 1: it does not; 2: bad input.");
  cmd->add_option("model", f.options.model_path, "The model (.onnx or .onnxtxt)")->required();
  AddRuntimeFlags(cmd, &f.runtime);
  cmd->add_option("--ep", f.options.eps,
                  "Execution provider(s) of the one target checked, in priority order: A+B, or "
                  "--ep A --ep B (the same list; default: the runtime's first provider)");
  cmd->add_option("--fallback", f.fallback,
                  "allow, warn or forbid: with forbid a node that falls back from the first EP "
                  "fails the check")
      ->capture_default_str();
  cmd->add_option("--optimization-level", f.options.optimization_level,
                  "Graph optimization level the model is loaded at")
      ->capture_default_str();
  cmd->add_option("--target-opset", f.target_opset,
                  "Convert the model to this default-domain opset with ONNX's version converter "
                  "and compare the converted model's outputs with the original's");
  cmd->add_option("--seed", f.options.seed, "Seed of the conversion check's generated inputs")
      ->capture_default_str();
  cmd->add_option("--dim", f.dims, "NAME=SIZE for a named dynamic dimension of generated inputs");
  cmd->add_option("--json", f.json_path, "Write the check as JSON");
  cmd->add_option("--junit", f.junit_path, "Write the check as JUnit XML");
  cmd->add_option("--markdown", f.markdown_path, "Write the check as Markdown");
  AddModelWorkerFlags(cmd, &f.worker);
  cmd->callback([&ctx] { ctx.action = [&ctx] { return CheckModelCommand(f, ctx); }; });
}

}  // namespace onnxgate
