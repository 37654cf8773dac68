// The run/gate driver: suites -> selection -> worker processes -> expectations -> reports.
#include "harness/run_command.h"

#include <malloc.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <system_error>

#include "conformance/expectations.h"
#include "conformance/matrix.h"
#include "golden/golden_file.h"
#include "harness/case_request.h"
#include "harness/case_runner.h"
#include "harness/suite.h"
#include "harness/worker.h"
#include "reports/format.h"
#include "reports/html_writer.h"
#include "reports/json_writer.h"
#include "reports/junit_writer.h"
#include "reports/markdown_writer.h"
#include "reports/matrix_summary.h"
#include "reports/text_escape.h"
#include "runtime/base/safe_name.h"
#include "runtime/base/sha256.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitUnexpected = 1;
constexpr int kExitUsage = 2;

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

HostRecord DescribeHost() {
  HostRecord h;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  h.logical_cores = static_cast<int64_t>(::sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      h.cpu_model = line.substr(line.find(':') + 2);
      break;
    }
  }
  std::ifstream os("/etc/os-release");
  while (std::getline(os, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      h.os = line.substr(12);
      if (h.os.size() >= 2 && h.os.front() == '"') h.os = h.os.substr(1, h.os.size() - 2);
    }
  }
  return h;
}

// One case x EP of one runtime to run.
struct CaseJob {
  const Suite* suite;
  const SuiteCase* c;
  size_t runtime;  // index into the run's runtimes
  std::string ep;
};

CaseRecord RecordFromCrash(const CaseJob& job, const JobResult& result) {
  CaseRecord r;
  r.suite = job.suite->name;
  r.name = job.c->name;
  r.op_types = job.c->op_types;
  r.opset_imports = job.c->opset_imports;
  r.ep = job.ep;
  r.outcome = result.outcome == JobOutcome::kTimeout ? Verdict::kTimeout : Verdict::kCrash;
  r.verdict = r.outcome;
  r.message = "worker " + result.message;
  r.duration_s = result.seconds;
  return r;
}

std::string EncodeCase(const CaseRecord& record) {
  RunRecord one;
  one.cases.push_back(record);
  one.totals = CountVerdicts(one.cases);
  return RenderRunJson(one);
}

StatusOr<CaseRecord> DecodeCase(const std::string& payload) {
  ONNXGATE_ASSIGN_OR_RETURN(RunRecord one, ParseRunJson(payload, "worker result"));
  if (one.cases.size() != 1)
    return Internal("worker result holds " + std::to_string(one.cases.size()) + " cases");
  return std::move(one.cases[0]);
}

void PrintCaseLine(const CaseRecord& r, size_t done, size_t total) {
  // Names and messages come from models and kernels: escaped, so they cannot drive the terminal.
  std::printf("[%zu/%zu] %-11s %s/%s [%s] (%.2fs)%s%s\n", done, total, VerdictToString(r.verdict),
              EscapeForTerminal(r.suite).c_str(), EscapeForTerminal(r.name).c_str(),
              EscapeForTerminal(TargetName(r)).c_str(), r.duration_s, r.message.empty() ? "" : ": ",
              EscapeForTerminal(r.message).c_str());
  std::fflush(stdout);
}

// The matrix in a few lines: op versions per cell class, the ops with failing cells, coverage.
void PrintMatrixSummary(const RunRecord& run) {
  if (run.matrix.empty()) return;
  std::map<CellClass, int> classes;
  std::vector<std::string> failing;
  for (const MatrixCell& cell : run.matrix) {
    CellClass c = ClassifyCounts(cell.counts);
    ++classes[c];
    if (c == CellClass::kFailing) {
      failing.push_back(EscapeForTerminal(FormatMatrixCell(cell).insert(0, cell.op + " ")));
    }
  }
  std::printf("Conformance matrix: %zu op version x %s cells:", run.matrix.size(),
              run.runtimes.size() > 1 ? "runtime/EP" : "EP");
  for (const auto& [c, n] : classes) std::printf(" %d %s", n, CellClassName(c));
  std::printf("\n");
  for (size_t i = 0; i < failing.size() && i < 20; ++i)
    std::printf("  failing: %s\n", failing[i].c_str());
  if (failing.size() > 20) std::printf("  ... and %zu more failing cells\n", failing.size() - 20);
  if (!run.coverage.empty())
    std::printf("%s\n", FormatCoverageLine(SumCoverage(run.coverage)).c_str());
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
  if (!options.isolate) words.push_back("--no-isolation");
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
  if (Status st = ValidateRunOptions(options); !st.ok()) {
    std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(st.message()).c_str());
    return kExitUsage;
  }
  if (runtimes.empty()) {
    std::fprintf(stderr, "onnxgate: no runtime to run\n");
    return kExitUsage;
  }
  // Usage checks first: unknown EPs and suites are exit 2 before anything runs.
  for (const RuntimeInRun& r : runtimes) {
    const std::vector<std::string> known = r.runtime->providers();
    for (const std::string& ep : r.eps) {
      if (Status st = CheckSafeName("EP", ep); !st.ok()) {
        std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(st.message()).c_str());
        return kExitUsage;
      }
      // A provider the runtime does not list is accepted when the runtime can say what it
      // claims (a plugin may list only its main providers).
      if (std::find(known.begin(), known.end(), ep) == known.end() && !r.runtime->Claims(ep).ok()) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        std::fprintf(stderr, "onnxgate: unknown EP '%s' (this runtime offers: %s)\n", ep.c_str(),
                     EscapeForTerminal(list).c_str());
        return kExitUsage;
      }
    }
  }
  std::vector<const RuntimeUnderTest*> named;
  for (const RuntimeInRun& r : runtimes) named.push_back(r.runtime);
  const std::vector<std::string> labels = RuntimeLabels(named);
  const bool side_by_side = runtimes.size() > 1;
  if (options.suites.empty()) {
    std::fprintf(stderr, "onnxgate: no suite given (--suite NAME)\n");
    return kExitUsage;
  }
  std::string suites_dir = (fs::path(options.root) / "suites").string();
  std::vector<Suite> suites;
  for (const std::string& name : options.suites) {
    auto suite = LoadSuite(suites_dir, name);
    if (!suite.ok()) {
      std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(suite.status().message()).c_str());
      return kExitUsage;
    }
    suites.push_back(std::move(*suite));
  }
  if (Status st = CheckExactCasesExist(suites, options.selection); !st.ok()) {
    std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(st.message()).c_str());
    return kExitUsage;
  }

  ToleranceLayers tolerances;
  std::string tolerances_file = options.tolerances_file;
  if (tolerances_file.empty()) {
    fs::path def = fs::path(options.root) / "conformance" / "tolerances.json";
    if (fs::exists(def)) tolerances_file = def.string();
  }
  if (!tolerances_file.empty()) {
    auto loaded = ToleranceLayers::LoadFile(tolerances_file);
    if (!loaded.ok()) {
      std::fprintf(stderr, "onnxgate: %s\n", EscapeForTerminal(loaded.status().message()).c_str());
      return kExitUsage;
    }
    tolerances = std::move(*loaded);
  }

  // By (runtime index, EP).
  std::map<std::pair<size_t, std::string>, ExpectationFile> expectations;
  std::map<std::pair<size_t, std::string>, std::string> expectation_paths;
  if (options.apply_expectations) {
    std::string dir = options.expectations_dir.empty()
                          ? (fs::path(options.root) / "conformance" / "expectations").string()
                          : options.expectations_dir;
    for (size_t i = 0; i < runtimes.size(); ++i) {
      for (const std::string& ep : runtimes[i].eps) {
        const std::string name =
            runtimes[i].expectations_name.empty() ? ep : runtimes[i].expectations_name;
        std::string path = (fs::path(dir) / (name + ".json")).string();
        auto file = LoadExpectationsOrEmpty(path, ep);
        if (!file.ok()) {
          std::fprintf(stderr, "onnxgate: %s\n",
                       EscapeForTerminal(file.status().message()).c_str());
          return kExitUsage;
        }
        expectations[{i, ep}] = std::move(*file);
        expectation_paths[{i, ep}] = path;
      }
    }
  }
  auto apply_expectation = [&](const CaseJob& job, CaseRecord& r) {
    if (!options.apply_expectations) return;
    ApplyExpectation(expectations[{job.runtime, job.ep}], expectation_paths[{job.runtime, job.ep}],
                     r);
  };
  auto reproducer = [&](const CaseJob& job) {
    return ReproducerCommand(options, runtimes[job.runtime], job.suite->name, job.c->name, job.ep);
  };

  std::vector<CaseJob> jobs;
  for (const Suite& suite : suites) {
    for (const SuiteCase* c : SelectCases(suite, options.selection)) {
      for (size_t i = 0; i < runtimes.size(); ++i) {
        for (const std::string& ep : runtimes[i].eps) jobs.push_back({&suite, c, i, ep});
      }
    }
  }

  if (jobs.empty()) {
    std::fprintf(stderr,
                 "onnxgate: no case matches the selection (check --case, --filter, --op, "
                 "--opset, --tag)\n");
    return kExitUsage;
  }

  RunRecord run;
  run.tool_version = ONNXGATE_VERSION;
  run.runtime_name = runtimes[0].runtime->name();
  run.runtime_version = runtimes[0].runtime->version();
  for (size_t i = 0; i < runtimes.size(); ++i) {
    run.runtimes.push_back(
        {labels[i], runtimes[i].runtime->name(), runtimes[i].runtime->version(), runtimes[i].spec});
  }
  run.start_time = std::chrono::system_clock::now();
  run.command_line = options.command_line;
  run.host = DescribeHost();
  run.suites = options.suites;
  for (const auto& f : options.selection.filters)
    run.selection.filter += (run.selection.filter.empty() ? "" : " ") + f;
  for (const RuntimeInRun& r : runtimes) {
    for (const std::string& ep : r.eps) {
      if (std::find(run.selection.eps.begin(), run.selection.eps.end(), ep) ==
          run.selection.eps.end()) {
        run.selection.eps.push_back(ep);
      }
    }
  }
  run.selection.shard_index = options.selection.shard_index;
  run.selection.shard_count = options.selection.shard_count;

  // Each case goes to its worker as a request (data); the worker finds the case in the suites
  // loaded here and runs it on the runtime the request names.
  std::vector<std::string> requests;
  std::map<std::pair<std::string, std::string>, std::pair<const Suite*, const SuiteCase*>> known;
  for (const CaseJob& job : jobs) {
    requests.push_back(EncodeCaseRequest({job.suite->name, job.c->name, job.runtime, job.ep}));
    known[{job.suite->name, job.c->name}] = {job.suite, job.c};
  }
  const Executor execute = [&](const std::string& text) {
    StatusOr<CaseRequest> request = DecodeCaseRequest(text);
    auto found = request.ok() ? known.find({request->suite, request->case_name}) : known.end();
    if (!request.ok() || found == known.end() || request->runtime >= runtimes.size()) {
      CaseRecord r;
      r.outcome = r.verdict = Verdict::kUnresolved;
      r.message = request.ok() ? "a case request names no case of this run: " + text
                               : request.status().message();
      return EncodeCase(r);
    }
    CaseRunOptions o;
    o.ep = request->ep;
    o.load.providers = {request->ep};
    o.load.fallback = options.fallback;
    o.load.optimization_level = options.optimization_level;
    o.convert_to_opset = options.convert_to_opset;
    o.tolerances = &tolerances;
    o.cli_tolerance = options.cli_tolerance;
    return EncodeCase(RunCase(*runtimes[request->runtime].runtime, *found->second.first,
                              *found->second.second, o));
  };

  std::printf("onnxgate %s: %zu case(s) x EP from %zu suite(s)%s, %d worker(s)%s\n",
              options.apply_expectations ? "gate" : "run", jobs.size(), suites.size(),
              side_by_side ? (" on " + std::to_string(runtimes.size()) + " runtimes").c_str() : "",
              options.jobs, options.isolate ? "" : ", no isolation");
  std::fflush(stdout);
  std::vector<CaseRecord> records(jobs.size());
  size_t done = 0;
  auto to_record = [&](const JobResult& result) {
    const CaseJob& job = jobs[result.index];
    CaseRecord r;
    if (result.outcome == JobOutcome::kOk) {
      auto decoded = DecodeCase(result.payload);
      if (decoded.ok() && decoded->name.empty()) {
        // The worker could not read its request: the job says which case it was.
        r = RecordFromCrash(job, result);
        r.outcome = r.verdict = decoded->verdict;
        r.message = decoded->message;
      } else if (decoded.ok()) {
        r = std::move(*decoded);
      } else {
        r = RecordFromCrash(job, result);
        r.outcome = r.verdict = Verdict::kUnresolved;
        r.message = "unreadable worker result: " + decoded.status().message();
      }
    } else {
      r = RecordFromCrash(job, result);
    }
    if (side_by_side) r.runtime = labels[job.runtime];
    r.reproducer = reproducer(job);
    return r;
  };

  // Lazily built process-wide state (ONNX's schema registry, HDF5's library state, OpenSSL's
  // digests, each EP's kernel registry) is built here, once, so that every forked worker
  // inherits it instead of building it again per case.
  std::vector<OperatorVersions> operators = AllOperators();
  InitializeGoldenIo();
  Sha256Hex("");
  for (const RuntimeInRun& r : runtimes) {
    for (const std::string& ep : r.eps) (void)r.runtime->Claims(ep);
  }
  // Free heap pages go back to the system, so a worker's allocations land on fresh zero pages
  // instead of copying the parent's scattered free chunks page by page (about 5% of a gate).
  malloc_trim(0);

  for (size_t i = 0; i < runtimes.size(); ++i) {
    if (Status st = runtimes[i].runtime->PrepareWorkerSlots(std::max(1, options.jobs)); !st.ok()) {
      std::fprintf(stderr, "onnxgate: preparing the workers of runtime %s: %s\n",
                   EscapeForTerminal(labels[i]).c_str(), EscapeForTerminal(st.message()).c_str());
      return kExitUsage;
    }
  }
  ScopedStopSignals stop_signals;
  WorkerOptions wo;
  wo.enter_slot = [&runtimes](int slot) {
    for (const RuntimeInRun& r : runtimes) r.runtime->EnterWorkerSlot(slot);
  };
  wo.parallelism = std::max(1, options.jobs);
  wo.timeout_seconds = options.timeout_s;
  wo.cpu_limit_seconds = options.timeout_s;  // cases load with one intra-op thread
  wo.memory_limit_bytes = static_cast<size_t>(options.memory_limit_mb) << 20;
  wo.isolate = options.isolate;
  WorkerPool pool(wo);
  std::vector<JobResult> results = pool.Run(requests, execute, [&](const JobResult& result) {
    const CaseJob& job = jobs[result.index];
    runtimes[job.runtime].runtime->LeaveWorkerSlot(result.slot, result.outcome == JobOutcome::kOk);
    ++done;
    CaseRecord r = to_record(result);
    apply_expectation(job, r);
    if (options.verbose || r.verdict != Verdict::kPass) PrintCaseLine(r, done, jobs.size());
    records[result.index] = std::move(r);
  });
  const bool stopped = StopRequested();
  const std::string stop_cause =
      StopSignal() ? SignalName(StopSignal()) : std::string("a stop request");
  // Jobs a stop left unrun have no verdict: they are listed as not run, apart from the judged
  // cases, so the totals and the matrix count only what was judged. A job not run without a stop
  // (fork or pipe failed) is an infrastructure problem with that case: UNRESOLVED, judged.
  std::vector<CaseRecord> finished;
  for (const JobResult& result : results) {
    if (result.outcome != JobOutcome::kNotRun) {
      finished.push_back(std::move(records[result.index]));
      continue;
    }
    const CaseJob& job = jobs[result.index];
    if (!stopped) {
      CaseRecord r = RecordFromCrash(job, result);
      r.outcome = r.verdict = Verdict::kUnresolved;
      if (side_by_side) r.runtime = labels[job.runtime];
      r.reproducer = reproducer(job);
      apply_expectation(job, r);
      finished.push_back(std::move(r));
      continue;
    }
    NotRunRecord n;
    n.suite = job.suite->name;
    n.name = job.c->name;
    n.op_types = job.c->op_types;
    if (side_by_side) n.runtime = labels[job.runtime];
    n.ep = job.ep;
    n.reason = "not run: the run was interrupted by " + stop_cause;
    if (result.started) {
      n.reason += " while it was running";
    } else if (result.message != "not run") {
      n.reason += " (" + result.message + ")";
    }
    n.reproducer = reproducer(job);
    run.not_run.push_back(std::move(n));
  }
  // A stop that came after the last case finished left the results complete.
  if (!run.not_run.empty()) {
    run.status = RunStatus::kInterrupted;
    run.status_message = "interrupted by " + stop_cause + ": " + std::to_string(finished.size()) +
                         " of " + std::to_string(jobs.size()) +
                         " selected case(s) x EP finished, " + std::to_string(run.not_run.size()) +
                         " not run";
  }

  run.cases = std::move(finished);
  run.totals = CountVerdicts(run.cases);
  run.matrix = BuildMatrix(run.cases);
  run.coverage = BuildCoverage(operators, run.cases);
  run.end_time = std::chrono::system_clock::now();
  run.duration_s = std::chrono::duration<double>(run.end_time - run.start_time).count();

  bool report_error = false;
  using Writer = std::function<Status(const RunRecord&, const std::string&)>;
  auto write = [&](const std::string& path, const Writer& writer) {
    if (path.empty()) return;
    Status st = writer(run, path);
    if (!st.ok()) {
      std::fprintf(stderr, "onnxgate: writing report %s failed: %s\n",
                   EscapeForTerminal(path).c_str(), EscapeForTerminal(st.message()).c_str());
      report_error = true;
    }
  };
  write(options.junit_path, [&options](const RunRecord& r, const std::string& p) {
    return WriteJunitXml(r, p, options.junit_schema);
  });
  write(options.json_path, &WriteRunJson);
  write(options.html_path,
        [](const RunRecord& r, const std::string& p) { return WriteHtml(r, p); });
  write(options.markdown_path,
        [](const RunRecord& r, const std::string& p) { return WriteMarkdown(r, p); });

  // Summary: counts per verdict, then the unexpected cases with their reproducers.
  std::vector<const CaseRecord*> unexpected;
  for (const CaseRecord& r : run.cases) {
    if (IsUnexpected(r, options.strict)) unexpected.push_back(&r);
  }
  std::printf("\nSummary: %zu case(s) in %.1fs:", run.cases.size(), run.duration_s);
  for (Verdict v : kAllVerdicts) {
    if (run.totals[v] > 0)
      std::printf(" %lld %s", static_cast<long long>(run.totals[v]), VerdictToString(v));
  }
  std::printf("\n");
  // A run of models shows its unexpected cases before the operator matrix; operator tests after.
  const bool models = IsModelRun(run);
  if (!models) PrintMatrixSummary(run);
  if (!unexpected.empty()) {
    std::printf("%zu unexpected result(s); reproduce each alone with:\n", unexpected.size());
    for (const CaseRecord* r : unexpected) {
      std::printf("  %-11s %s/%s [%s]\n    %s\n", VerdictToString(r->verdict),
                  EscapeForTerminal(r->suite).c_str(), EscapeForTerminal(r->name).c_str(),
                  EscapeForTerminal(TargetName(*r)).c_str(),
                  EscapeForTerminal(r->reproducer).c_str());
    }
  }
  if (models) PrintMatrixSummary(run);
  // Every selected case x EP is either judged or listed as not run; anything else would make
  // the reports undercount the selection.
  if (run.cases.size() + run.not_run.size() != jobs.size()) {
    std::fprintf(stderr, "onnxgate: internal error: %zu finished + %zu not run != %zu selected\n",
                 run.cases.size(), run.not_run.size(), jobs.size());
    return kExitUsage;
  }
  if (run.status == RunStatus::kInterrupted) {
    // Exit 2, not 1: the run says nothing about the runtime's results as a whole, and not 0:
    // the reports list the unrun cases as errors, so a CI job must not pass.
    std::printf("%zu case(s) x EP not run\nResult: INTERRUPTED (%s)\n", run.not_run.size(),
                run.status_message.c_str());
    std::fprintf(stderr, "onnxgate: %s; reports hold what finished and list the rest as not run\n",
                 run.status_message.c_str());
    return kExitUsage;
  }
  if (report_error) return kExitUsage;
  std::printf("%s\n", unexpected.empty() ? "Result: all expectations met" : "Result: FAILED");
  return unexpected.empty() ? kExitOk : kExitUnexpected;
}

}  // namespace onnxgate
