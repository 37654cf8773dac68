// The run/gate driver in four stages (plan, execute, judge, publish), option checks and
// reproducer lines.
#include "harness/run_command.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "harness/progress.h"
#include "harness/run_execute.h"
#include "harness/run_judge.h"
#include "harness/run_plan.h"
#include "harness/run_publish.h"
#include "harness/worker.h"
#include "reports/format.h"
#include "reports/text_escape.h"
#include "runtime/base/safe_name.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace fs = std::filesystem;

namespace {

constexpr int kExitUsage = 2;

// A usage or infrastructure error before any case ran: its message on stderr, exit 2.
int UsageError(const Status& st) {
  std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(st.message()).c_str());
  return kExitUsage;
}

// `path` made absolute, so that a reproducer works from any working directory.
std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  std::string text = ec ? path : absolute.lexically_normal().string();
  if (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// The shortest decimal form that reads back as the same double ("30", "2.5", "1e-09").
std::string RoundTripNumber(double value) {
  char buf[64];
  const std::to_chars_result written = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, written.ptr);
}

// A --runtime spec as a reproducer names it: a plugin path with a folder in it made absolute (a
// bare file name is looked up by the dynamic loader, as given).
std::string ReproducibleRuntimeSpec(const std::string& spec) {
  const std::string plugin = "plugin:";
  if (spec.compare(0, plugin.size(), plugin) != 0) return spec;
  const std::string path = spec.substr(plugin.size());
  if (path.empty() || path[0] == '/' || path.find('/') == std::string::npos) return spec;
  return plugin + AbsolutePath(path);
}

// The options of a run that can change a case's verdict, as command-line words; defaults are
// left out.
std::vector<std::string> VerdictOptionWords(const RunCommandOptions& options) {
  const RunCommandOptions defaults;
  std::vector<std::string> words;
  if (options.timeout_s != defaults.timeout_s) {
    words.insert(words.end(), {"--timeout", RoundTripNumber(options.timeout_s)});
  }
  if (options.memory_limit_mb != defaults.memory_limit_mb) {
    words.insert(words.end(), {"--memory-limit", std::to_string(options.memory_limit_mb)});
  }
  if (options.isolation != defaults.isolation) {
    words.insert(words.end(), {"--isolation", IsolationName(options.isolation)});
  }
  if (!options.tolerances_file.empty()) {
    words.push_back("--tolerances=" + AbsolutePath(options.tolerances_file));
  }
  if (options.cli_tolerance.rtol) {
    words.insert(words.end(), {"--rtol", RoundTripNumber(*options.cli_tolerance.rtol)});
  }
  if (options.cli_tolerance.atol) {
    words.insert(words.end(), {"--atol", RoundTripNumber(*options.cli_tolerance.atol)});
  }
  if (options.fallback != FallbackPolicy::kAllow) {
    words.insert(words.end(), {"--fallback", FallbackPolicyName(options.fallback)});
  }
  if (options.optimization_level != defaults.optimization_level) {
    words.insert(words.end(), {"--optimization-level", std::to_string(options.optimization_level)});
  }
  if (options.convert_to_opset != defaults.convert_to_opset) {
    words.insert(words.end(), {"--convert-to-opset", std::to_string(options.convert_to_opset)});
  }
  if (options.apply_expectations && !options.expectations_dir.empty()) {
    words.push_back("--expectations-dir=" + AbsolutePath(options.expectations_dir));
  }
  if (options.apply_expectations && !options.strict) words.push_back("--no-strict");
  return words;
}

}  // namespace

std::string ReproducerCommand(const RunCommandOptions& options, const RuntimeInRun& runtime,
                              const std::string& suite, const std::string& case_name,
                              const std::string& ep) {
  // --root is an option of onnxgate itself, so it goes before the subcommand. Paths are made
  // absolute so that the line reproduces the case from any working directory. Values that come
  // from files (the case name, runtime options) use the --option=value form: one starting with
  // '-' is not read as an option.
  std::vector<std::string> words = {options.executable,
                                    "--root",
                                    AbsolutePath(options.root),
                                    options.apply_expectations ? "gate" : "run",
                                    "--suite",
                                    suite,
                                    "--case=" + suite + "/" + case_name,
                                    "--ep",
                                    ep};
  if (runtime.spec != "builtin") {
    words.push_back("--runtime=" + ReproducibleRuntimeSpec(runtime.spec));
  }
  for (const std::string& option : runtime.options) words.push_back("--runtime-option=" + option);
  const std::vector<std::string> verdict_options = VerdictOptionWords(options);
  words.insert(words.end(), verdict_options.begin(), verdict_options.end());
  std::string command;
  for (const std::string& word : words) {
    command += (command.empty() ? "" : " ") + ShellWordForTerminal(word);
  }
  return command;
}

Status ValidateRunOptions(const RunCommandOptions& options) {
  if (options.jobs < 1 || options.jobs > kMaxJobs) {
    return InvalidArgument("-j/--jobs must be between 1 and " + std::to_string(kMaxJobs) +
                           ", got " + std::to_string(options.jobs));
  }
  // NaN fails every comparison, so the test is written to let only good values through.
  if (!(options.timeout_s > 0 && options.timeout_s <= kMaxTimeoutSeconds)) {
    return InvalidArgument("--timeout must be a number of seconds in (0, " +
                           std::to_string(static_cast<int64_t>(kMaxTimeoutSeconds)) + "], got " +
                           FormatNumber(options.timeout_s));
  }
  if (options.memory_limit_mb != 0 && (options.memory_limit_mb < kMinMemoryLimitMb ||
                                       options.memory_limit_mb > (int64_t{1} << 30))) {
    return InvalidArgument("--memory-limit must be 0 (none) or at least " +
                           std::to_string(kMinMemoryLimitMb) + " MiB, got " +
                           std::to_string(options.memory_limit_mb));
  }
  if (options.optimization_level < 0 || options.optimization_level > kMaxOptimizationLevel) {
    return InvalidArgument("--optimization-level must be 0 to " +
                           std::to_string(kMaxOptimizationLevel) + ", got " +
                           std::to_string(options.optimization_level));
  }
  if (options.convert_to_opset < 0 || options.convert_to_opset > MaxOpset("")) {
    return InvalidArgument("--convert-to-opset must be an opset of ai.onnx from 1 to " +
                           std::to_string(MaxOpset("")) + ", got " +
                           std::to_string(options.convert_to_opset));
  }
  ONNXGATE_RETURN_IF_ERROR(options.cli_tolerance.Validate("--rtol/--atol"));
  for (const std::string& ep : options.eps) ONNXGATE_RETURN_IF_ERROR(CheckSafeName("EP", ep));
  for (const std::string& suite : options.suites)
    ONNXGATE_RETURN_IF_ERROR(CheckSafeName("suite", suite));
  return OkStatus();
}

int RunCommand(const RunCommandOptions& options, const RuntimeUnderTest& runtime) {
  RuntimeInRun one;
  one.runtime = &runtime;
  one.spec = options.runtime_spec;
  one.options = options.runtime_options;
  one.expectations_name = options.expectations_name;
  one.eps = options.eps;
  return RunCommand(options, std::vector<RuntimeInRun>{one});
}

int RunCommand(const RunCommandOptions& options, const std::vector<RuntimeInRun>& runtimes) {
  StatusOr<RunPlan> plan = PlanRun(options, runtimes);
  if (!plan.ok()) return UsageError(plan.status());
  RunRecord run = StartRunRecord(*plan);
  PrintRunHeader(*plan);
  if (Status st = PrepareWorkers(&*plan); !st.ok()) return UsageError(st);
  // From here to the exit code, SIGINT and SIGTERM stop the run cleanly: no new case starts,
  // the running ones are killed, and the reports say what finished.
  ScopedStopSignals stop_signals;
  const size_t total = plan->requests.size();
  ProgressReporter progress = ProgressReporter::ForStderr(total);
  Execution execution =
      ExecuteRun(*plan, [&](const CaseRequest& request, CaseRecord& record, size_t done) {
        JudgeCase(*plan, request, record);
        const bool unexpected = options.apply_expectations ? IsUnexpected(record, options.strict)
                                                           : record.verdict != Verdict::kPass;
        if (options.quiet) return;
        if (options.verbose || unexpected) {
          progress.Clear();
          PrintCaseLine(record, done, total);
        }
        progress.CaseDone(done);
      });
  progress.Finish();
  JudgeRun(*plan, std::move(execution), &run);
  return PublishRun(*plan, run);
}

}  // namespace onnxgate
