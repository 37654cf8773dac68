// `onnxgate bench` and `onnxgate baseline update`: flags -> BenchCommandOptions -> the latency
// commands on the runtime --runtime names (and --against, for a comparison of two).
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/latency/bench_command.h"
#include "harness/models/model_feeds.h"

namespace onnxgate {

namespace {

constexpr int kBaselineRounds = 5;

struct BenchFlags {
  BenchCommandOptions options;
  std::string clock = "wall";
  std::string fallback = "allow";
  std::vector<std::string> dims;
  std::vector<std::string> input_ranges;
  std::string timing = "auto";
  bool quick = false;
  CLI::Option* repetitions = nullptr;
  CLI::Option* min_time = nullptr;
  CLI::Option* warmup = nullptr;
  CLI::Option* rounds = nullptr;
  RuntimeFlags runtime;
  RuntimeFlags against;  // bench --against: the reference runtime
};

// The flags `bench` and `baseline update` share: what to measure and how.
void AddMeasurementFlags(CLI::App* cmd, BenchFlags& f) {
  BenchCommandOptions& o = f.options;
  BenchSettings& s = o.settings;
  AddRuntimeFlags(cmd, &f.runtime);
  cmd->add_option("--models", o.models_dir,
                  "Folder of .onnx models to measure (default: generate the model zoo into a "
                  "temporary folder)");
  cmd->add_option("--model", o.model_globs,
                  "Only models whose name matches this glob (repeatable)");
  o.eps.clear();  // default: the runtime's first provider (ref for builtin)
  cmd->add_option("--ep", o.eps,
                  "Execution provider (repeatable; default: the runtime's first, ref for builtin); "
                  "A+B measures one target whose nodes may fall back from A to B, never outside "
                  "the list");
  cmd->add_option("--threads", o.threads, "Intra-op thread counts to measure (one or more)")
      ->capture_default_str();
  cmd->add_option("--dim", f.dims,
                  "NAME=SIZE[,SIZE...]: sizes of a named symbolic dimension (repeatable); every "
                  "combination of the sizes of the dimensions a model has is one measurement of "
                  "it; a name no model has is an error");
  cmd->add_option("--input", o.input_files,
                  "Inputs for every measurement instead of generated ones (repeatable): a NumPy "
                  ".npz with an array per input, .pb TensorProto files, or a folder of them; each "
                  "--dim then gives one size");
  cmd->add_option("--input-range", f.input_ranges,
                  "NAME=LO:HI: generated values of integer input NAME in [LO, HI), e.g. token ids "
                  "(repeatable; over the model's metadata onnxgate.input_range.NAME)");
  cmd->add_option("--fallback", f.fallback,
                  "allow: nodes may fall back to a later provider and the reports say how many "
                  "and which ops; warn: the same, printed below the table too; forbid: a "
                  "measurement whose nodes leave the target fails (that model's error)")
      ->capture_default_str();
  f.repetitions = cmd->add_option("--repetitions", s.repetitions,
                                  "Google Benchmark repetitions per measurement (at least 9)")
                      ->capture_default_str();
  f.min_time = cmd->add_option("--min-time", s.min_time_s,
                               "Seconds each repetition runs at least (more runs per repetition "
                               "for fast models)")
                   ->capture_default_str();
  f.warmup =
      cmd->add_option("--warmup", s.warmup_s, "Seconds of warm-up before the first repetition")
          ->capture_default_str();
  f.rounds =
      cmd->add_option("--rounds", o.rounds,
                      "Passes over all models, one after the other, each with --repetitions "
                      "repetitions; the samples are pooled, so a measurement spans more of the "
                      "machine's slow and fast spells")
          ->capture_default_str();
  cmd->add_option("--timeout", o.timeout_s,
                  "Seconds one measurement may take in its worker process before it is killed "
                  "(a crashing or hanging kernel ends that measurement, not the bench); with "
                  "--against, the worker measuring both runtimes gets twice this")
      ->capture_default_str();
  cmd->add_option("--optimization-level", s.optimization_level,
                  "Graph optimization level models are loaded at: 0 none, 1 constant folding "
                  "and dead-node removal, 2 fusions too; a baseline records its level and is "
                  "compared only at that level")
      ->capture_default_str();
  cmd->add_option("--clock", f.clock,
                  "wall: elapsed time (the latency users see); cpu: CPU time of all threads "
                  "(steadier on shared machines, blind to waiting and parallel speed-up)")
      ->capture_default_str();
  cmd->add_option("--timing", f.timing,
                  "Who times the runs: runtime (inside the runtime's own process, its timed-runs "
                  "request, so no adapter pipe or copy is counted; wall clock only), harness "
                  "(around each run, in onnxgate), or auto (runtime where the runtime offers it "
                  "and --clock is wall)")
      ->capture_default_str();
  cmd->add_flag("--quick", f.quick,
                "Quick mode for CTest: only the zoo's mlp and mobilenet_v2 unless --model is "
                "given (every model of a --models folder that has neither), 9 "
                "repetitions of 0.05 s, 0.1 s warm-up, at least 3 rounds (each unless given "
                "explicitly)");
  cmd->add_option("--baselines-dir", o.baselines_dir,
                  "Folder of baselines, <fingerprint>/<ep>.json (default: golden/baselines under "
                  "--root)");
  cmd->add_option("--baseline", o.baseline_file,
                  "One baseline file to use instead of the one for this machine (one --ep only)");
}

// Fills in what the flags leave to the context; returns 2 after printing on a bad flag value.
int Finish(BenchFlags& f, const CliContext& ctx, const char* command, BenchCommandOptions* out) {
  *out = f.options;
  out->root = ctx.root;
  out->command_line = ctx.argv;
  out->tool_version = ONNXGATE_VERSION;
  out->progress_ticks = ::isatty(::fileno(stdout)) != 0;
  ResolveHistoryTarget(&out->history, ProcessEnvironment());
  auto clock = BenchClockFromName(f.clock);
  if (!clock.ok()) {
    std::fprintf(stderr, "onnxgate %s: --clock: %s\n", command, clock.status().message().c_str());
    return 2;
  }
  out->settings.clock = *clock;
  auto fallback = FallbackPolicyFromName(f.fallback);
  auto dims = ParseDimFlags(f.dims);
  auto ranges = ParseInputRangeFlags(f.input_ranges);
  for (const Status& st :
       {fallback.status().WithContext("--fallback"), dims.status(), ranges.status()}) {
    if (st.ok()) continue;
    std::fprintf(stderr, "onnxgate %s: %s\n", command, st.message().c_str());
    return 2;
  }
  out->settings.fallback = *fallback;
  out->dims = std::move(dims).value();
  out->input_ranges = std::move(ranges).value();
  auto timing = BenchTimingFromName(f.timing);
  if (!timing.ok()) {
    std::fprintf(stderr, "onnxgate %s: --timing: %s\n", command, timing.status().message().c_str());
    return 2;
  }
  out->settings.timing = *timing;
  if (*timing == BenchTiming::kRuntime && *clock == BenchClock::kCpu) {
    std::fprintf(stderr,
                 "onnxgate %s: --timing runtime measures wall time; --clock cpu needs --timing "
                 "harness (or auto)\n",
                 command);
    return 2;
  }
  if (f.quick) {
    out->quick_models = out->model_globs.empty();
    if (f.repetitions->count() == 0) out->settings.repetitions = 9;
    if (f.min_time->count() == 0) out->settings.min_time_s = 0.05;
    if (f.warmup->count() == 0) out->settings.warmup_s = 0.1;
    if (f.rounds->count() == 0) out->rounds = std::max(out->rounds, 3);
  }
  return 0;
}

}  // namespace

void AddBenchCommands(CLI::App& app, CliContext& ctx) {
  static BenchFlags bench;
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Measure model latency per model x EP x thread count x shapes (--dim) with Google "
      "Benchmark (load time, first run, steady state); with --compare, judge it against this "
      "machine's baseline. A model that cannot be measured is that model's error in the "
      "reports while the others are measured. Exit 0: all measured, no regression; 1: all "
      "measured, a regression; 2: a model not measured, or a usage error");
  AddMeasurementFlags(cmd, bench);
  BenchCommandOptions& o = bench.options;
  cmd->add_flag("--compare", o.compare,
                "Compare with the baseline for this machine fingerprint (none: reported, not a "
                "failure); a baseline from another fingerprint is refused");
  cmd->add_flag("--fail-on-new", o.fail_on_new,
                "With --compare: exit 1 on a configuration (model name, threads, shapes) that "
                "this machine's baseline has never measured, as on a regression");
  bench.against.spec.clear();  // no comparison unless named
  cmd->add_option("--against", bench.against.spec,
                  "Measure the --runtime (the candidate) and this runtime (the reference, named "
                  "like --runtime) in alternating turns and judge the candidate against it: "
                  "exit 1 where it is slower beyond the thresholds")
      ->default_str("");
  cmd->add_option("--against-option", bench.against.options,
                  "key=value passed to the --against runtime when it is created (repeatable)");
  cmd->add_option("--thresholds", o.thresholds_file,
                  "Thresholds file (default: thresholds.json in the baselines folder)");
  cmd->add_option("--json", o.json_path, "Write the JSON report (docs/report-json-schema.md)");
  cmd->add_option("--junit", o.junit_path, "Write a JUnit XML report (a 'latency' testsuite)");
  AddJunitSchemaOption(cmd, &o.junit_schema);
  cmd->add_option("--markdown", o.markdown_path, "Write a Markdown summary");
  cmd->add_option("--html", o.html_path, "Write one self-contained HTML page");
  AddHistoryFlags(cmd, &o.history);
  // Test-only, hidden from --help (empty group): busy work worth P% of a run added to every
  // run (of the candidate alone with --against), for ci/latency-evidence.sh and
  // ci/detector-sensitivity.sh to show what the detector flags.
  cmd->add_option("--extra-work-percent", o.settings.extra_work_percent,
                  "TEST-ONLY: add this share of extra busy work to every run")
      ->group("");
  cmd->callback([&ctx] {
    ctx.action = [&ctx] {
      BenchCommandOptions options;
      if (int rc = Finish(bench, ctx, "bench", &options); rc != 0) return rc;
      std::unique_ptr<RuntimeUnderTest> runtime =
          CreateRuntimeOrReport(bench.runtime, ctx, "bench");
      if (runtime == nullptr) return 2;
      DefaultToFirstProvider(*runtime, &options.eps);
      if (bench.against.spec.empty()) {
        if (!bench.against.options.empty()) {
          std::fprintf(stderr, "onnxgate bench: --against-option needs --against\n");
          return 2;
        }
        return RunBenchCommand(options, *runtime);
      }
      std::unique_ptr<RuntimeUnderTest> reference =
          CreateRuntimeOrReport(bench.against, ctx, "bench");
      if (reference == nullptr) return 2;
      options.runtime_spec = bench.runtime.spec;
      options.against_spec = bench.against.spec;
      return RunBenchAgainstCommand(options, *runtime, *reference);
    };
  });

  static BenchFlags update;
  // A baseline is recorded once and judged against many times: it spends more rounds.
  update.options.rounds = kBaselineRounds;
  CLI::App* baseline = app.add_subcommand("baseline", "Latency baselines");
  baseline->require_subcommand(1);
  CLI::App* up = baseline->add_subcommand(
      "update",
      "Measure like `bench` and write the results as this machine's baseline, "
      "<baselines-dir>/<fingerprint>/<ep>.json, replacing the entries measured and keeping the "
      "others");
  AddMeasurementFlags(up, update);
  up->callback([&ctx] {
    ctx.action = [&ctx] {
      BenchCommandOptions options;
      if (int rc = Finish(update, ctx, "baseline update", &options); rc != 0) return rc;
      std::unique_ptr<RuntimeUnderTest> runtime =
          CreateRuntimeOrReport(update.runtime, ctx, "baseline update");
      if (runtime == nullptr) return 2;
      DefaultToFirstProvider(*runtime, &options.eps);
      return RunBaselineUpdateCommand(options, *runtime);
    };
  });
}

}  // namespace onnxgate
