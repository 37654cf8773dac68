// The onnxgate command line: each command adds itself to the CLI11 app and sets `action`, which
// main() runs after parsing. Exit codes: 0 met, 1 unexpected results, 2 usage or infrastructure.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conformance/tolerances.h"
#include "harness/history/history_from_run.h"
#include "harness/runtime_factory.h"
#include "reports/junit_writer.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

struct CliContext {
  std::string root;               // --root: holds suites/, golden/data/, conformance/
  std::vector<std::string> argv;  // as invoked
  std::string executable;         // absolute path of this binary, for reproducer lines
  std::function<int()> action;    // what the chosen command runs
};

// --junit-schema, shared by every command that writes JUnit.
inline void AddJunitSchemaOption(CLI::App* cmd, JunitSchema* schema) {
  const std::map<std::string, JunitSchema> names = {
      {JunitSchemaName(JunitSchema::kStrict), JunitSchema::kStrict},
      {JunitSchemaName(JunitSchema::kExtended), JunitSchema::kExtended}};
  cmd->add_option("--junit-schema", *schema,
                  "JUnit dialect: strict (valid under reports/junit-strict.xsd; case properties "
                  "in <system-out>) or extended (adds <properties> per testcase)")
      ->transform(CLI::CheckedTransformer(names, CLI::ignore_case))
      ->default_str(JunitSchemaName(*schema));
}

// --runtime and --runtime-option, shared by every command that runs models.
struct RuntimeFlags {
  std::string spec = kBuiltinRuntimeSpec;
  std::vector<std::string> options;
  double case_timeout_seconds = 0;  // the command's --timeout, where it has one (0: none)
};

inline void AddRuntimeFlags(CLI::App* cmd, RuntimeFlags* flags) {
  cmd->add_option("--runtime", flags->spec,
                  "Runtime under test: builtin; plugin:<file.so> (docs/plugin-abi.md); "
                  "adapter:<command...> (docs/adapter-protocol.md); or a name in "
                  "adapters/runtimes.json (ort: ONNX Runtime)")
      ->capture_default_str();
  cmd->add_option("--runtime-option", flags->options,
                  "key=value passed to the runtime when it is created (repeatable)");
}

// The runtime `flags` name, or null after printing "onnxgate <command>: <why>" to stderr.
inline std::unique_ptr<RuntimeUnderTest> CreateRuntimeOrReport(const RuntimeFlags& flags,
                                                               const CliContext& ctx,
                                                               const char* command) {
  auto options = ParseRuntimeOptions(flags.options);
  if (!options.ok()) {
    std::fprintf(stderr, "onnxgate %s: %s\n", command, options.status().message().c_str());
    return nullptr;
  }
  auto runtime =
      CreateRuntime(flags.spec, *options, ctx.root, RuntimeLimitsFor(flags.case_timeout_seconds));
  if (!runtime.ok()) {
    std::fprintf(stderr, "onnxgate %s: %s\n", command, runtime.status().message().c_str());
    return nullptr;
  }
  return std::move(runtime).value();
}

// --ep left out: the runtime's first provider (ref for builtin).
inline void DefaultToFirstProvider(const RuntimeUnderTest& runtime, std::vector<std::string>* eps) {
  if (eps->empty() && !runtime.providers().empty()) *eps = {runtime.providers().front()};
}

// --ep, --optimization-level and --threads of the one configuration a command that runs a
// user's model (record, diff, sweep) loads it with.
struct LoadFlags {
  std::string ep;  // empty: the runtime's first provider
  int optimization_level = 0;
  int threads = 1;
};

inline void AddLoadFlags(CLI::App* cmd, LoadFlags* flags, const std::string& prefix = "",
                         const std::string& whose = "") {
  cmd->add_option("--" + prefix + "ep", flags->ep,
                  whose + "EP (default: the runtime's first provider)");
  cmd->add_option("--" + prefix + "optimization-level", flags->optimization_level,
                  whose + "graph optimization level the model is loaded at")
      ->capture_default_str();
  cmd->add_option("--" + prefix + "threads", flags->threads, whose + "intra-op threads")
      ->capture_default_str();
}

inline LoadOptions LoadOptionsOf(const RuntimeUnderTest& runtime, const LoadFlags& flags) {
  LoadOptions load;
  if (!flags.ep.empty())
    load.providers = {flags.ep};
  else
    load.providers.clear();
  DefaultToFirstProvider(runtime, &load.providers);
  load.optimization_level = flags.optimization_level;
  load.intra_op_threads = flags.threads;
  return load;
}

// "builtin ref, optimization level 2, 1 thread(s)": a configuration as reports name it.
inline std::string ConfigurationLabel(const std::string& runtime_spec, const LoadOptions& load) {
  return runtime_spec + " " + (load.providers.empty() ? std::string("-") : load.providers.front()) +
         ", optimization level " + std::to_string(load.optimization_level) + ", " +
         std::to_string(load.intra_op_threads) + " thread(s)";
}

// A report file of a command that judges one model: written where `path` is given, rendered
// only then.
struct ModelReportFile {
  const std::string* path;
  std::function<std::string()> render;
};

// The end of a command that judges one model (check-model, diff, sweep): every report file
// given is written, then `text` goes to stdout. Exit 0 when `passed`, 1 when not, 2 (after
// printing why) when a report cannot be written.
inline int FinishModelCommand(const char* command, const std::vector<ModelReportFile>& reports,
                              const std::string& text, bool passed) {
  for (const ModelReportFile& report : reports) {
    if (report.path->empty()) continue;
    if (Status written = WriteFileAtomically(*report.path, report.render()); !written.ok()) {
      std::fprintf(stderr, "onnxgate %s: %s\n", command, written.message().c_str());
      return 2;
    }
  }
  std::fputs(text.c_str(), stdout);
  return passed ? 0 : 1;
}

// --rtol and --atol over ONNX's defaults into `tolerance`; false after printing why they are
// refused.
inline bool ToleranceFromFlags(const std::optional<double>& rtol, const std::optional<double>& atol,
                               const char* command, Tolerance* tolerance) {
  if (Status valid = ToleranceOverride{rtol, atol}.Validate("--rtol/--atol"); !valid.ok()) {
    std::fprintf(stderr, "onnxgate %s: %s\n", command, valid.message().c_str());
    return false;
  }
  if (rtol) tolerance->rtol = *rtol;
  if (atol) tolerance->atol = *atol;
  return true;
}

void AddRunCommands(CLI::App& app, CliContext& ctx);          // run, gate
void AddImportCommand(CLI::App& app, CliContext& ctx);        // import-onnx-tests
void AddListCommand(CLI::App& app, CliContext& ctx);          // list (and CTest scripts)
void AddExpectationsCommand(CLI::App& app, CliContext& ctx);  // expectations update
void AddOpsCommand(CLI::App& app, CliContext& ctx);          // ops: op versions x EP claims x cases
void AddZooCommand(CLI::App& app, CliContext& ctx);          // zoo generate, zoo list
void AddBenchCommands(CLI::App& app, CliContext& ctx);       // bench, baseline update
void AddRecordCommand(CLI::App& app, CliContext& ctx);       // record: a model -> a suite case
void AddCheckModelCommand(CLI::App& app, CliContext& ctx);   // check-model: preflight a model
void AddDiffCommand(CLI::App& app, CliContext& ctx);         // diff: a model on two configurations
void AddSweepCommand(CLI::App& app, CliContext& ctx);        // sweep: rows at other batch sizes
void AddReportCommand(CLI::App& app, CliContext& ctx);       // report: render a JSON report again
void AddMergeCommand(CLI::App& app, CliContext& ctx);        // merge: shard reports -> one run's
void AddDiffReportsCommand(CLI::App& app, CliContext& ctx);  // diff-reports: verdict changes
void AddMatrixCommand(CLI::App& app, CliContext& ctx);       // matrix: one across runtimes
void AddHistoryCommand(CLI::App& app, CliContext& ctx);      // history show, html, check, import
// --history, --commit and --branch of the commands that append to the history (bench, run, gate).
void AddHistoryFlags(CLI::App* cmd, HistoryTarget* target);

// --json, --junit (with --junit-schema), --markdown and --html of the commands that write a run's
// reports from other reports (report, merge); WriteReportsOf writes those named (an empty path:
// not asked for) as run and gate write theirs (WriteReports), false when one fails.
void AddReportOutputs(CLI::App* cmd, std::string* json, std::string* junit, std::string* markdown,
                      std::string* html, JunitSchema* schema);
bool WriteReportsOf(const RunRecord& run, const std::string& json, const std::string& junit,
                    const std::string& markdown, const std::string& html, JunitSchema schema);

}  // namespace onnxgate
