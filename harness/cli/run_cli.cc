// `onnxgate run` and `onnxgate gate`: flags -> RunCommandOptions -> RunCommand on the runtime
// --runtime names.
#include <algorithm>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/ep_target.h"
#include "harness/latency/fingerprint.h"
#include "harness/run_command.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace {

struct RunFlags {
  RunCommandOptions options;
  std::vector<std::string> ops;
  std::vector<int64_t> opsets;
  std::vector<std::string> cases;  // --case <suite>/<name>
  double rtol = -1, atol = -1;
  std::string fallback = "allow";
  std::string isolation = "worker";
  bool no_strict = false;
  CLI::Option* shard_index = nullptr;  // whether --shard-index was given
  // --runtime (repeatable: several run side by side) and --runtime-option, each option for the
  // --runtime before it on the command line (the first when none is).
  std::vector<std::string> runtimes;
  std::vector<std::string> runtime_options;
  CLI::App* command = nullptr;
  CLI::Option* runtime_flag = nullptr;
  CLI::Option* runtime_option_flag = nullptr;
};

// The --runtime-option values of each --runtime, by the order they came on the command line.
std::vector<std::vector<std::string>> OptionsPerRuntime(const RunFlags& f) {
  std::vector<std::vector<std::string>> per_runtime(std::max<size_t>(1, f.runtimes.size()));
  size_t runtime = 0, option = 0;
  bool seen_runtime = false;
  for (const CLI::Option* given : f.command->parse_order()) {
    if (given == f.runtime_flag) {
      runtime = seen_runtime ? runtime + 1 : 0;
      seen_runtime = true;
    } else if (given == f.runtime_option_flag && option < f.runtime_options.size()) {
      per_runtime[std::min(runtime, per_runtime.size() - 1)].push_back(f.runtime_options[option++]);
    }
  }
  return per_runtime;
}

void AddCommonFlags(CLI::App* cmd, RunFlags& f) {
  RunCommandOptions& o = f.options;
  f.command = cmd;
  f.runtime_flag = cmd->add_option(
      "--runtime", f.runtimes,
      "Runtime under test (repeatable: several run side by side, a report column per "
      "runtime/EP): builtin (default); plugin:<file.so> (docs/plugin-abi.md); "
      "adapter:<command...> (docs/adapter-protocol.md); or a name in adapters/runtimes.json "
      "(ort: ONNX Runtime)");
  f.runtime_option_flag = cmd->add_option(
      "--runtime-option", f.runtime_options,
      "key=value for the --runtime before it (the first when none is), passed when it is "
      "created (repeatable)");
  cmd->add_option("--suite", o.suites, "Suite to run (repeatable): suites/<NAME>/suite.json")
      ->required();
  o.eps.clear();  // default: the runtime's first provider (ref for builtin), set in Execute
  cmd->add_option("--ep", o.eps,
                  "Execution provider(s) to run on (repeatable: each --ep is a target of its "
                  "own; default: the runtime's first, ref for builtin). A+B is one target with "
                  "a provider priority list: B takes what A declines, a fallback that --fallback "
                  "judges. With several runtimes each runs the targets it offers, or its first "
                  "provider when it offers none of them");
  cmd->add_option("--case", f.cases,
                  "Exactly this case, <suite>/<name>: the name is matched byte for byte, not as "
                  "a glob (repeatable; write --case=<suite>/<name> when the name starts with "
                  "'-'). Reproducer lines select their case this way");
  cmd->add_option("--filter", o.selection.filters,
                  "Case name glob (repeatable; a leading '-' excludes)");
  cmd->add_option("--op", o.selection.op_types, "Only cases using this op type (repeatable)");
  cmd->add_option("--opset", o.selection.opsets,
                  "Only cases whose default-domain opset is N (repeatable)");
  cmd->add_option("--tag", o.selection.tags, "Only cases with this tag (repeatable)");
  cmd->add_option("-j,--jobs", o.jobs, "Worker processes at once")->capture_default_str();
  cmd->add_option("--timeout", o.timeout_s,
                  "Seconds per case, wall clock and CPU time, before it is TIMEOUT (more than 0, "
                  "at most 604800)")
      ->capture_default_str();
  cmd->add_option("--memory-limit", o.memory_limit_mb,
                  "Address space per worker in MiB (RLIMIT_AS); a case past it is a CRASH "
                  "saying so (0: none)")
      ->capture_default_str();
  cmd->add_option("--isolation", f.isolation,
                  "Where cases run: worker (long-lived worker processes, each serving many "
                  "cases), case (a fresh process per case, for runtimes that leave state behind), "
                  "none (this process, for debuggers; no CRASH/TIMEOUT containment)")
      ->check(CLI::IsMember({"worker", "case", "none"}))
      ->capture_default_str();
  cmd->add_option("--rtol", f.rtol, "Override rtol for every output (top tolerance layer)");
  cmd->add_option("--atol", f.atol, "Override atol for every output (top tolerance layer)");
  cmd->add_option("--tolerances", o.tolerances_file,
                  "Tolerance file (default: conformance/tolerances.json)");
  cmd->add_option("--fallback", f.fallback,
                  "When a node runs on a provider other than the target's first: allow; warn "
                  "(the reports and the summary count those nodes by op, shape-only ones "
                  "apart); forbid (the case is UNSUPPORTED naming the node, or UNRESOLVED when "
                  "the runtime reports no placements)")
      ->capture_default_str();
  cmd->add_option("--optimization-level", o.optimization_level,
                  "Graph optimization level models are loaded at: 0 none, 1 constant folding "
                  "and dead-node removal, 2 fusions too (built-in runtime; a plugin or adapter "
                  "maps the level to its own)")
      ->capture_default_str();
  cmd->add_option("--convert-to-opset", o.convert_to_opset,
                  "Run each case's model converted to this ai.onnx opset by ONNX's version "
                  "converter (cases at a later opset, or that it cannot convert, are SKIP)");
  f.shard_index = cmd->add_option("--shard-index", o.selection.shard_index,
                                  "This shard (0-based); also GTEST_SHARD_INDEX, CI_NODE_INDEX "
                                  "(1-based), or JOB_COMPLETION_INDEX with --shard-count");
  cmd->add_option("--shard-count", o.selection.shard_count,
                  "Number of shards; also GTEST_TOTAL_SHARDS or CI_NODE_TOTAL");
  cmd->add_option("--against-report", o.against_report,
                  "JSON report of an earlier run of the same suites (the last release's): fail "
                  "when a case's outcome got worse than there, and list what changed");
  cmd->add_option("--junit", o.junit_path, "Write a JUnit XML report");
  AddJunitSchemaOption(cmd, &o.junit_schema);
  cmd->add_option("--json", o.json_path, "Write the JSON report (docs/report-json-schema.md)");
  cmd->add_option("--markdown", o.markdown_path, "Write a Markdown summary");
  cmd->add_option("--html", o.html_path,
                  "Write one self-contained HTML page (op x opset matrix, failures)");
  AddHistoryFlags(cmd, &o.history);
  cmd->add_flag("-v,--verbose", o.verbose,
                "Print a line for every case as it ends, passing and expected ones too (by "
                "default only unexpected outcomes get one; expected ones are counted)");
  cmd->add_flag("-q,--quiet", o.quiet,
                "Print the summary alone: no line per case, no reproducer lines, no progress "
                "(by default a progress line on stderr when it is a terminal, else a line "
                "every 10 s; colour on a terminal unless NO_COLOR is set)");
}

// The targets of `requested` that `runtime` runs: all of them when it is the only runtime
// (RunCommand names any provider it does not offer), else those whose every provider it lists or
// can say what it claims; its first provider when that leaves none.
std::vector<std::string> EpsFor(const RuntimeUnderTest& runtime,
                                const std::vector<EpTarget>& requested, bool only_runtime) {
  std::vector<std::string> eps;
  for (const EpTarget& target : requested) {
    if (only_runtime || CheckTargetOffered(runtime, target).ok()) eps.push_back(target.label);
  }
  DefaultToFirstProvider(runtime, &eps);
  return eps;
}

int Execute(RunFlags& f, const CliContext& ctx) {
  RunCommandOptions o = f.options;
  o.root = ctx.root;
  o.command_line = ctx.argv;
  o.executable = ctx.executable;
  IsolationFromName(f.isolation, &o.isolation);
  o.strict = !f.no_strict;
  ResolveHistoryTarget(&o.history, ProcessEnvironment());
  if (!o.history.database.empty()) o.history.machine = CurrentMachineFingerprint().Id();
  if (f.rtol >= 0) o.cli_tolerance.rtol = f.rtol;
  if (f.atol >= 0) o.cli_tolerance.atol = f.atol;
  auto policy = FallbackPolicyFromName(f.fallback);
  if (!policy.ok()) {
    std::fprintf(stderr, "onnxgate: --fallback: %s\n", policy.status().message().c_str());
    return 2;
  }
  o.fallback = *policy;
  for (const std::string& text : f.cases) {
    auto exact = ParseExactCase(text);
    if (!exact.ok()) {
      std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(exact.status().message()).c_str());
      return 2;
    }
    o.selection.cases.push_back(std::move(*exact));
  }
  Status shard = ApplyShardEnvironment(o.selection, f.shard_index->count() > 0);
  if (!shard.ok() || o.selection.shard_count < 1 || o.selection.shard_index < 0 ||
      o.selection.shard_index >= o.selection.shard_count) {
    std::fprintf(
        stderr, "onnxgate: bad sharding: %s\n",
        shard.ok() ? "--shard-index must be in [0, --shard-count)" : shard.message().c_str());
    return 2;
  }
  const char* command = o.apply_expectations ? "gate" : "run";
  std::vector<EpTarget> targets;
  for (const std::string& ep : o.eps) {
    StatusOr<EpTarget> target = ParseEpTarget(ep);
    if (!target.ok()) {
      std::fprintf(stderr, "onnxgate %s: %s\n", command,
                   EscapeForTerminal(target.status().message()).c_str());
      return 2;
    }
    targets.push_back(std::move(target).value());
  }
  std::vector<std::string> specs = f.runtimes;
  if (specs.empty()) specs = {kBuiltinRuntimeSpec};
  const std::vector<std::vector<std::string>> options = OptionsPerRuntime(f);
  std::vector<std::unique_ptr<RuntimeUnderTest>> owned;
  std::vector<RuntimeInRun> runtimes;
  for (size_t i = 0; i < specs.size(); ++i) {
    owned.push_back(CreateRuntimeOrReport({specs[i], options[i], o.timeout_s}, ctx, command));
    if (owned.back() == nullptr) return 2;
    RuntimeInRun r;
    r.runtime = owned.back().get();
    r.spec = specs[i];
    r.options = options[i];
    // A runtime named in the registry (ort) is judged by its own file (ort.json).
    if (IsRegistryName(specs[i])) r.expectations_name = specs[i];
    r.eps = EpsFor(*r.runtime, targets, specs.size() == 1);
    runtimes.push_back(std::move(r));
  }
  // An EP no runtime offers is a usage error, not a silent default.
  for (const std::string& ep : o.eps) {
    const bool offered = std::any_of(runtimes.begin(), runtimes.end(), [&](const RuntimeInRun& r) {
      return std::find(r.eps.begin(), r.eps.end(), ep) != r.eps.end();
    });
    if (!offered) {
      std::string list;
      for (const RuntimeInRun& r : runtimes) {
        for (const std::string& k : r.runtime->providers()) list += (list.empty() ? "" : ", ") + k;
      }
      std::fprintf(stderr, "onnxgate %s: unknown EP '%s' (the runtimes offer: %s)\n", command,
                   EscapeForTerminal(ep).c_str(), list.c_str());
      return 2;
    }
  }
  return RunCommand(o, runtimes);
}

}  // namespace

void AddRunCommands(CLI::App& app, CliContext& ctx) {
  static RunFlags run_flags, gate_flags;
  CLI::App* run = app.add_subcommand(
      "run", "Run suites on EPs and report raw verdicts; exit 1 unless every case passes");
  AddCommonFlags(run, run_flags);
  run->callback([&ctx] { ctx.action = [&ctx] { return Execute(run_flags, ctx); }; });

  CLI::App* gate = app.add_subcommand(
      "gate",
      "Run suites and judge them against conformance/expectations (<ep>.json for the built-in "
      "runtime, <registry name>.json, <runtime name>.<ep>.json otherwise): exit 1 on any "
      "outcome the expectations do not predict (an XPASS too, unless --no-strict)");
  AddCommonFlags(gate, gate_flags);
  gate->add_option("--expectations-dir", gate_flags.options.expectations_dir,
                   "Folder of the expectation files (default: conformance/expectations)");
  gate->add_flag("--no-strict", gate_flags.no_strict, "An XPASS does not fail the gate");
  gate->callback([&ctx] {
    gate_flags.options.apply_expectations = true;
    ctx.action = [&ctx] { return Execute(gate_flags, ctx); };
  });
}

}  // namespace onnxgate
