// `onnxgate bench` and `onnxgate baseline update`: model selection, measurement with progress,
// comparison with baselines, the table and the reports.
#include "harness/latency/bench_command.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>

#include "harness/latency/baseline.h"
#include "harness/latency/bench_table.h"
#include "harness/latency/comparator.h"
#include "harness/latency/fingerprint.h"
#include "harness/latency/gbench_json.h"
#include "harness/latency/isolated_measure.h"
#include "harness/latency/thresholds.h"
#include "harness/zoo/zoo.h"
#include "reports/format.h"
#include "reports/html_writer.h"
#include "reports/json_writer.h"
#include "reports/junit_writer.h"
#include "reports/markdown_writer.h"
#include "reports/text_escape.h"
#include "runtime/base/atomic_file.h"
#include "runtime/base/check.h"
#include "runtime/base/utc_time.h"

namespace onnxgate {

namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitRegression = 1;
constexpr int kExitUsage = 2;

// A folder under $TMPDIR (or /tmp) removed with everything in it when this goes away.
class TempDir {
 public:
  TempDir() = default;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  Status Create() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/onnxgate-zoo-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) {
      return Unavailable("creating a temporary folder for the zoo from template " + templ +
                         " failed");
    }
    path_ = templ;
    return OkStatus();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool MatchesAny(const std::vector<std::string>& globs, const std::string& name) {
  if (globs.empty()) return true;
  for (const std::string& g : globs) {
    if (::fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

// The .onnx files to measure: generated into `temp` when no folder is given, else the folder's
// .onnx files in name order; either way filtered by the globs.
StatusOr<std::vector<std::string>> ResolveModels(const BenchCommandOptions& o, TempDir* temp) {
  if (o.models_dir.empty()) {
    ONNXGATE_RETURN_IF_ERROR(temp->Create());
    std::fprintf(o.out, "generating the model zoo into %s\n", temp->path().c_str());
    return zoo::GenerateZoo(temp->path(), zoo::ZooModels(), o.model_globs);
  }
  std::error_code ec;
  std::vector<std::string> paths;
  for (const fs::directory_entry& e : fs::directory_iterator(o.models_dir, ec)) {
    if (e.path().extension() != ".onnx") continue;
    if (MatchesAny(o.model_globs, ModelNameFromPath(e.path().string()))) {
      paths.push_back(e.path().string());
    }
  }
  if (ec) return NotFound("listing models in " + o.models_dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  if (paths.empty()) {
    return NotFound("no .onnx model in " + o.models_dir +
                    (o.model_globs.empty() ? std::string() : " matches the --model patterns"));
  }
  return paths;
}

Status ValidateOptions(const BenchCommandOptions& o) {
  if (o.eps.empty()) return InvalidArgument("give at least one --ep");
  if (o.threads.empty()) return InvalidArgument("give at least one --threads value");
  for (int t : o.threads) {
    if (t < 1) return InvalidArgument("--threads must be >= 1, got " + std::to_string(t));
  }
  if (!(o.timeout_s > 0 && o.timeout_s <= kMaxBenchTimeoutSeconds)) {
    return InvalidArgument("--timeout must be a number of seconds in (0, " +
                           std::to_string(static_cast<int64_t>(kMaxBenchTimeoutSeconds)) + "]");
  }
  if (o.rounds < 1 || o.rounds > 100) {
    return InvalidArgument("--rounds must be between 1 and 100, got " + std::to_string(o.rounds));
  }
  if (o.settings.optimization_level < 0 || o.settings.optimization_level > kMaxOptimizationLevel) {
    return InvalidArgument("--optimization-level must be 0 to " +
                           std::to_string(kMaxOptimizationLevel) + ", got " +
                           std::to_string(o.settings.optimization_level));
  }
  if (!o.baseline_file.empty() && o.eps.size() != 1) {
    return InvalidArgument("--baseline names one file, which holds one EP; give exactly one --ep");
  }
  return OkStatus();
}

class ProgressPrinter : public BenchObserver {
 public:
  // `loads`: print each load and first-run time as it comes (a pair prints its own line after).
  ProgressPrinter(std::FILE* out, bool ticks, bool loads = true)
      : out_(out), ticks_(ticks), loads_(loads) {}
  void OnLoaded(double load_ms, double first_run_ms) override {
    if (!loads_) return;
    std::fprintf(out_, " load %s ms, first run %s ms, steady state", FormatMs(load_ms).c_str(),
                 FormatMs(first_run_ms).c_str());
    std::fflush(out_);
  }
  void OnTick() override {
    if (!ticks_) return;
    std::fputc('.', out_);
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  bool ticks_;
  bool loads_;
};

// One runtime a bench measures and its EPs. In a comparison (--against) the reference's eps[i]
// is measured beside the candidate's eps[i].
struct BenchSide {
  const RuntimeUnderTest* runtime = nullptr;
  std::vector<std::string> eps;
  std::string label;  // empty for a bench of one runtime
  // Whether the test-only extra work (--extra-work-percent) slows this side: the one runtime of a
  // bench, the candidate of a comparison (so a detector's sensitivity can be shown against an
  // unslowed reference).
  bool extra_work = true;
};

// Every --threads value must be one each EP can honour; checked before anything is measured.
Status CheckThreadsHonoured(const BenchCommandOptions& o, const BenchSide& side) {
  for (const std::string& ep : side.eps) {
    ONNXGATE_ASSIGN_OR_RETURN(int most, side.runtime->MaxIntraOpThreads(ep));
    for (int t : o.threads) {
      if (t <= most) continue;
      return InvalidArgument("--threads " + std::to_string(t) + ": EP '" + ep + "' of runtime '" +
                             side.runtime->name() + "' " +
                             (most == 1
                                  ? std::string("runs every op on the calling thread")
                                  : "uses at most " + std::to_string(most) + " intra-op threads") +
                             "; a measurement labelled " + std::to_string(t) +
                             " threads would measure fewer, so it is refused");
    }
  }
  return OkStatus();
}

// Adds round `round`'s measurement of combination `index` to a side's list: the first round's
// is the entry, later rounds add their samples to it (load and first-run times stay the first's).
void AddRound(int round, size_t index, BenchMeasurement m, std::vector<BenchMeasurement>* side) {
  if (round == 0) {
    side->push_back(std::move(m));
    return;
  }
  BenchMeasurement& pooled = (*side)[index];
  auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
  append(pooled.samples_ms, m.samples_ms);
  append(pooled.real_ms, m.real_ms);
  append(pooled.cpu_ms, m.cpu_ms);
  append(pooled.iterations, m.iterations);
  pooled.summary = Summarize(pooled.samples_ms);
}

// Measures every model x EP x thread count, round after round: on one side, or on two side by
// side (MeasurePairIsolated: their repetitions take turns in one worker, and the side that
// starts swaps every round), so that the machine's slow and fast spells fall on both alike.
// Returns the pooled measurements per side, in the same combination order on each; with two
// sides, sample i of one was measured beside sample i of the other.
StatusOr<std::vector<std::vector<BenchMeasurement>>> MeasureAll(
    const BenchCommandOptions& o, const std::vector<BenchSide>& sides,
    const std::vector<std::string>& models) {
  ONNXGATE_CHECK(sides.size() == 1 || sides.size() == 2);
  for (const BenchSide& side : sides) ONNXGATE_RETURN_IF_ERROR(CheckThreadsHonoured(o, side));
  std::vector<std::vector<BenchMeasurement>> all(sides.size());
  const size_t total =
      models.size() * o.eps.size() * o.threads.size() * static_cast<size_t>(o.rounds);
  size_t done = 0;
  ProgressPrinter progress(o.out, o.progress_ticks, /*loads=*/sides.size() == 1);
  for (int round = 0; round < o.rounds; ++round) {
    size_t index = 0;  // of the combination within the round
    for (const std::string& path : models) {
      for (size_t e = 0; e < o.eps.size(); ++e) {
        for (int threads : o.threads) {
          std::fprintf(o.out, "[%zu/%zu] ", ++done, total);
          if (o.rounds > 1) std::fprintf(o.out, "round %d/%d: ", round + 1, o.rounds);
          auto target = [&](size_t s) {
            return BenchTarget{sides[s].runtime, path, sides[s].eps[e], sides[s].extra_work};
          };
          const std::string name = EscapeForTerminal(ModelNameFromPath(path));  // printed only
          const char* plural = threads == 1 ? "" : "s";
          if (sides.size() == 1) {
            std::fprintf(o.out, "%s on %s, %d thread%s:", name.c_str(),
                         TargetName(sides[0].label, sides[0].eps[e]).c_str(), threads, plural);
            std::fflush(o.out);
            auto m = MeasureModelIsolated(*sides[0].runtime, path, sides[0].eps[e], threads,
                                          o.settings, o.timeout_s, &progress);
            if (!m.ok()) {
              std::fprintf(o.out, " failed\n");
              return m.status().WithContext(TargetName(sides[0].label, sides[0].eps[e]));
            }
            std::fprintf(o.out, " median %s ms, cv %.1f%% (%d x %lld runs)\n",
                         FormatMs(m->summary.median).c_str(), m->summary.cv * 100.0,
                         o.settings.repetitions,
                         static_cast<long long>(m->iterations_per_repetition));
            AddRound(round, index, std::move(m).value(), &all[0]);
            ++index;
            continue;
          }
          const size_t lead = round % 2 == 0 ? 0 : 1;
          std::fprintf(o.out, "%s on %s beside %s, %d thread%s:", name.c_str(),
                       TargetName(sides[lead].label, sides[lead].eps[e]).c_str(),
                       TargetName(sides[1 - lead].label, sides[1 - lead].eps[e]).c_str(), threads,
                       plural);
          std::fflush(o.out);
          auto pair = MeasurePairIsolated(target(lead), target(1 - lead), threads, o.settings,
                                          2 * o.timeout_s, &progress);
          if (!pair.ok()) {
            std::fprintf(o.out, " failed\n");
            return pair.status().WithContext(TargetName(sides[0].label, sides[0].eps[e]) +
                                             " beside " +
                                             TargetName(sides[1].label, sides[1].eps[e]));
          }
          for (size_t k = 0; k < 2; ++k) {
            const BenchMeasurement& m = (*pair)[k];
            std::fprintf(
                o.out, "%s load %s ms, first run %s ms, median %s ms, cv %.1f%% (%d x %lld runs)",
                k == 0 ? "" : ";", FormatMs(m.load_ms).c_str(), FormatMs(m.first_run_ms).c_str(),
                FormatMs(m.summary.median).c_str(), m.summary.cv * 100.0, o.settings.repetitions,
                static_cast<long long>(m.iterations_per_repetition));
          }
          std::fprintf(o.out, "\n");
          AddRound(round, index, std::move((*pair)[0]), &all[lead]);
          AddRound(round, index, std::move((*pair)[1]), &all[1 - lead]);
          ++index;
        }
      }
    }
  }
  return all;
}

// A bench of one runtime on o.eps.
StatusOr<std::vector<BenchMeasurement>> MeasureAll(const BenchCommandOptions& o,
                                                   const RuntimeUnderTest& runtime,
                                                   const std::vector<std::string>& models) {
  ONNXGATE_ASSIGN_OR_RETURN(auto measured, MeasureAll(o, {BenchSide{&runtime, o.eps, ""}}, models));
  return std::move(measured[0]);
}

LatencyRecord ToRecord(const BenchMeasurement& m) {
  LatencyRecord r;
  r.model = m.model;
  r.ep = m.ep;
  r.threads = m.threads;
  r.repetitions = static_cast<int64_t>(m.samples_ms.size());
  r.median_ms = m.summary.median;
  r.min_ms = m.summary.min;
  r.p90_ms = m.summary.p90;
  r.p99_ms = m.summary.p99;
  r.mean_ms = m.summary.mean;
  r.cv = m.summary.cv;
  r.load_ms = m.load_ms;
  r.first_run_ms = m.first_run_ms;
  return r;
}

void ApplyComparison(const LatencyComparison& c, LatencyRecord* r) {
  r->verdict = c.verdict;
  r->baseline_median_ms = c.baseline_median_ms;
  r->change_ratio = c.change_ratio;
  r->p_value = c.p_value;
  r->threshold = c.threshold;
  r->message = c.message;
}

std::string BaselinesDir(const BenchCommandOptions& o) {
  return o.baselines_dir.empty() ? o.root + "/golden/baselines" : o.baselines_dir;
}

// --baseline-file, else the EP's file under the baselines folder (its name checked there).
StatusOr<std::string> BaselineFilePath(const BenchCommandOptions& o, const MachineFingerprint& fp,
                                       const std::string& ep) {
  if (!o.baseline_file.empty()) return o.baseline_file;
  return BaselinePath(BaselinesDir(o), fp, ep);
}

// --thresholds, else thresholds.json in the baselines folder (the defaults when it is absent).
StatusOr<LatencyThresholds> LoadThresholds(const BenchCommandOptions& o) {
  return LoadLatencyThresholds(o.thresholds_file.empty() ? BaselinesDir(o) + "/thresholds.json"
                                                         : o.thresholds_file);
}

// The baselines of each EP for --compare: absent (nullopt) when this machine has none; an
// error when a file exists but is unreadable or belongs to another fingerprint.
StatusOr<std::map<std::string, std::optional<BaselineFile>>> LoadBaselines(
    const BenchCommandOptions& o, const MachineFingerprint& fp, const RuntimeUnderTest& runtime,
    std::map<std::string, std::string>* paths) {
  std::map<std::string, std::optional<BaselineFile>> baselines;
  for (const std::string& ep : o.eps) {
    ONNXGATE_ASSIGN_OR_RETURN(const std::string path, BaselineFilePath(o, fp, ep));
    (*paths)[ep] = path;
    auto file = ReadBaseline(path);
    if (!file.ok() && file.status().code() == StatusCode::kNotFound && o.baseline_file.empty()) {
      baselines[ep] = std::nullopt;
      continue;
    }
    if (!file.ok()) return file.status().WithContext("reading the latency baseline");
    ONNXGATE_RETURN_IF_ERROR(CheckBaselineApplies(*file, path, fp, runtime.name(), ep,
                                                  BenchClockName(o.settings.clock),
                                                  o.settings.optimization_level));
    baselines[ep] = std::move(file).value();
  }
  return baselines;
}

HostRecord DescribeHost(const MachineFingerprint& fp) {
  HostRecord h;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  h.cpu_model = fp.cpu_model;
  h.logical_cores = fp.logical_cores;
  return h;
}

// The record of a bench starting now: the tool, the runtime, the host and the selection.
RunRecord StartBenchRecord(const BenchCommandOptions& o, const MachineFingerprint& fp,
                           const RuntimeUnderTest& runtime) {
  RunRecord run;
  run.tool_version = o.tool_version;
  run.runtime_name = runtime.name();
  run.runtime_version = runtime.version();
  run.start_time = std::chrono::system_clock::now();
  run.command_line = o.command_line;
  run.host = DescribeHost(fp);
  run.selection.eps = o.eps;
  for (const std::string& g : o.model_globs) {
    run.selection.filter += (run.selection.filter.empty() ? "" : " ") + g;
  }
  return run;
}

// The run report with Google Benchmark's "context" and "benchmarks" beside onnxgate's keys, so
// that one file serves onnxgate's readers (which ignore unknown keys) and Google Benchmark's
// tools (which ignore onnxgate's).
Status WriteBenchJson(const BenchCommandOptions& o, const RunRecord& run,
                      const std::vector<BenchMeasurement>& measured) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(RenderRunJson(run));
  const std::string executable = o.command_line.empty() ? "onnxgate" : o.command_line[0];
  nlohmann::ordered_json gbench =
      RenderGbenchJson(CurrentGbenchContext(executable), measured, o.settings.clock);
  j["context"] = std::move(gbench["context"]);
  j["benchmarks"] = std::move(gbench["benchmarks"]);
  return WriteFileAtomically(o.json_path, j.dump(2) + "\n");
}

Status WriteReports(const BenchCommandOptions& o, const RunRecord& run,
                    const std::vector<BenchMeasurement>& measured) {
  if (!o.json_path.empty()) ONNXGATE_RETURN_IF_ERROR(WriteBenchJson(o, run, measured));
  if (!o.junit_path.empty())
    ONNXGATE_RETURN_IF_ERROR(WriteJunitXml(run, o.junit_path, o.junit_schema));
  if (!o.markdown_path.empty()) {
    MarkdownOptions md;
    md.title = "onnxgate bench";
    ONNXGATE_RETURN_IF_ERROR(WriteMarkdown(run, o.markdown_path, md));
  }
  if (!o.html_path.empty()) {
    HtmlOptions html;
    html.title = "onnxgate bench";
    ONNXGATE_RETURN_IF_ERROR(WriteHtml(run, o.html_path, html));
  }
  return OkStatus();
}

void PrintHeader(const BenchCommandOptions& o, const MachineFingerprint& fp, size_t models,
                 const char* slowed_runs = "every run") {
  const BenchSettings& s = o.settings;
  std::fprintf(o.out,
               "machine %s (%s)\n%zu model(s) x %zu EP(s) x %zu thread count(s); %s clock, "
               "warm-up %.2g s, %d repetitions of >= %.2g s each, %d round%s\n",
               fp.Id().c_str(), fp.Describe().c_str(), models, o.eps.size(), o.threads.size(),
               BenchClockName(s.clock), s.warmup_s, s.repetitions, s.min_time_s, o.rounds,
               o.rounds == 1 ? "" : "s");
  if (s.optimization_level != 0) {
    std::fprintf(o.out, "models loaded at graph optimization level %d\n", s.optimization_level);
  }
  if (s.extra_work_percent > 0.0) {
    std::fprintf(o.out, "TEST-ONLY: adding %.3g%% extra busy work to %s\n", s.extra_work_percent,
                 slowed_runs);
  }
}

int Fail(const BenchCommandOptions& o, const char* command, const Status& st) {
  std::fprintf(o.err, "onnxgate %s: %s\n", command, st.message().c_str());
  return kExitUsage;
}

}  // namespace

int RunBenchCommand(const BenchCommandOptions& o, const RuntimeUnderTest& runtime) {
  if (Status st = ValidateOptions(o); !st.ok()) return Fail(o, "bench", st);
  const MachineFingerprint fp = CurrentMachineFingerprint();
  LatencyThresholds thresholds;
  std::map<std::string, std::optional<BaselineFile>> baselines;
  std::map<std::string, std::string> baseline_paths;
  if (o.compare) {
    // Before measuring anything: a wrong baseline or thresholds file should fail in seconds.
    auto t = LoadThresholds(o);
    if (!t.ok()) return Fail(o, "bench", t.status());
    thresholds = *t;
    auto b = LoadBaselines(o, fp, runtime, &baseline_paths);
    if (!b.ok()) return Fail(o, "bench", b.status());
    baselines = std::move(b).value();
  }

  RunRecord run = StartBenchRecord(o, fp, runtime);

  TempDir temp;
  auto models = ResolveModels(o, &temp);
  if (!models.ok()) return Fail(o, "bench", models.status());
  PrintHeader(o, fp, models->size());
  auto measured = MeasureAll(o, runtime, *models);
  if (!measured.ok()) return Fail(o, "bench", measured.status());

  int regressions = 0;
  for (const BenchMeasurement& m : *measured) {
    LatencyRecord r = ToRecord(m);
    if (o.compare) {
      const double threshold = thresholds.For(m.model, m.ep);
      const std::optional<BaselineFile>& file = baselines[m.ep];
      const BaselineEntry* entry = file ? file->Find(m.model, m.threads) : nullptr;
      LatencyComparison c;
      if (!file) {
        c = NoBaseline("no baseline for this machine: " + baseline_paths[m.ep] +
                           " does not exist (record one with `onnxgate baseline update`)",
                       threshold, thresholds.alpha);
      } else if (entry == nullptr) {
        c = NoBaseline("the baseline " + baseline_paths[m.ep] + " has no entry for " + m.model +
                           " at " + std::to_string(m.threads) + " thread(s)",
                       threshold, thresholds.alpha);
      } else if (!entry->model_sha256.empty() && entry->model_sha256 != m.model_sha256) {
        c = NoBaseline("the model changed since the baseline was recorded (sha256 " +
                           entry->model_sha256.substr(0, 12) + " then, " +
                           m.model_sha256.substr(0, 12) + " now); update the baseline",
                       threshold, thresholds.alpha);
      } else {
        c = CompareLatency(m.samples_ms, entry->samples_ms, threshold, thresholds.alpha);
      }
      ApplyComparison(c, &r);
      if (c.verdict == LatencyVerdict::kRegression) ++regressions;
    }
    run.latency.push_back(std::move(r));
  }
  run.end_time = std::chrono::system_clock::now();
  run.duration_s = std::chrono::duration<double>(run.end_time - run.start_time).count();

  std::fprintf(o.out, "\n%s", RenderBenchTable(run.latency, o.compare).c_str());
  if (o.compare) {
    bool missing = false;
    for (const auto& [ep, file] : baselines) {
      if (!file) {
        missing = true;
        std::fprintf(o.out,
                     "no latency baseline for this machine on %s: %s does not exist; nothing "
                     "compared (record one with `onnxgate baseline update`)\n",
                     ep.c_str(), baseline_paths[ep].c_str());
      }
    }
    for (const LatencyRecord& r : run.latency) {
      if (r.verdict == LatencyVerdict::kRegression || r.verdict == LatencyVerdict::kImprovement ||
          r.verdict == LatencyVerdict::kInconclusive ||
          (r.verdict == LatencyVerdict::kNoBaseline && !missing)) {
        std::fprintf(o.out, "%s %s[%s,%lldt]: %s\n", LatencyVerdictToString(r.verdict),
                     EscapeForTerminal(r.model).c_str(), EscapeForTerminal(r.ep).c_str(),
                     static_cast<long long>(r.threads), EscapeForTerminal(r.message).c_str());
      }
    }
    std::fprintf(o.out, "%d latency regression(s)\n", regressions);
  }
  std::fprintf(o.out, "bench wall time %.1f s\n", run.duration_s);
  if (Status st = WriteReports(o, run, *measured); !st.ok()) return Fail(o, "bench", st);
  return regressions > 0 ? kExitRegression : kExitOk;
}

int RunBenchAgainstCommand(const BenchCommandOptions& o, const RuntimeUnderTest& candidate,
                           const RuntimeUnderTest& reference) {
  const char* command = "bench --against";
  if (Status st = ValidateOptions(o); !st.ok()) return Fail(o, command, st);
  if (o.compare || !o.baseline_file.empty()) {
    return Fail(o, command,
                InvalidArgument("--against judges the runtime against another one measured "
                                "beside it; it takes no stored baseline (--compare, --baseline)"));
  }
  const std::vector<std::string> offered = reference.providers();
  if (offered.empty()) {
    return Fail(o, command, InvalidArgument("runtime '" + reference.name() + "' offers no EP"));
  }
  const std::vector<std::string> labels = RuntimeLabels({&candidate, &reference});
  BenchSide candidate_side{&candidate, o.eps, labels[0]};
  BenchSide reference_side{&reference, {}, labels[1], /*extra_work=*/false};
  // The reference runs the same EP where it has one, else its first.
  for (const std::string& ep : o.eps) {
    const bool has = std::find(offered.begin(), offered.end(), ep) != offered.end();
    reference_side.eps.push_back(has ? ep : offered.front());
  }
  auto thresholds = LoadThresholds(o);
  if (!thresholds.ok()) return Fail(o, command, thresholds.status());

  const MachineFingerprint fp = CurrentMachineFingerprint();
  RunRecord run = StartBenchRecord(o, fp, candidate);
  run.runtimes = {{labels[0], candidate.name(), candidate.version(), o.runtime_spec},
                  {labels[1], reference.name(), reference.version(), o.against_spec}};

  TempDir temp;
  auto models = ResolveModels(o, &temp);
  if (!models.ok()) return Fail(o, command, models.status());
  PrintHeader(o, fp, models->size(), "every run of the candidate");
  std::fprintf(o.out, "candidate %s against %s, measured in alternating turns\n", labels[0].c_str(),
               labels[1].c_str());
  auto measured = MeasureAll(o, {candidate_side, reference_side}, *models);
  if (!measured.ok()) return Fail(o, command, measured.status());

  int regressions = 0;
  const std::vector<BenchMeasurement>& now = (*measured)[0];
  const std::vector<BenchMeasurement>& other = (*measured)[1];
  for (size_t i = 0; i < now.size(); ++i) {
    LatencyRecord r = ToRecord(now[i]);
    r.runtime = labels[0];
    const std::string against = TargetName(labels[1], other[i].ep);
    LatencyComparison c =
        ComparePaired(now[i].samples_ms, other[i].samples_ms,
                      thresholds->For(now[i].model, now[i].ep), thresholds->alpha, against);
    ApplyComparison(c, &r);
    if (c.verdict == LatencyVerdict::kRegression) ++regressions;
    run.latency.push_back(std::move(r));
  }
  run.end_time = std::chrono::system_clock::now();
  run.duration_s = std::chrono::duration<double>(run.end_time - run.start_time).count();

  std::fprintf(o.out, "\n%s", RenderBenchTable(run.latency, true).c_str());
  for (const LatencyRecord& r : run.latency) {
    if (r.verdict != LatencyVerdict::kUnchanged) {
      std::fprintf(o.out, "%s %s: %s\n", LatencyVerdictToString(r.verdict),
                   EscapeForTerminal(LatencyDisplayName(r)).c_str(),
                   EscapeForTerminal(r.message).c_str());
    }
  }
  std::fprintf(o.out, "%d latency regression(s) of %s against %s\n", regressions, labels[0].c_str(),
               labels[1].c_str());
  std::fprintf(o.out, "bench wall time %.1f s\n", run.duration_s);
  if (Status st = WriteReports(o, run, now); !st.ok()) return Fail(o, command, st);
  return regressions > 0 ? kExitRegression : kExitOk;
}

int RunBaselineUpdateCommand(const BenchCommandOptions& o, const RuntimeUnderTest& runtime) {
  if (Status st = ValidateOptions(o); !st.ok()) return Fail(o, "baseline update", st);
  if (o.settings.extra_work_percent > 0.0) {
    return Fail(o, "baseline update",
                InvalidArgument("extra work is a test-only slowdown; a baseline must not "
                                "include it"));
  }
  const MachineFingerprint fp = CurrentMachineFingerprint();
  const std::string clock = BenchClockName(o.settings.clock);
  // Read (and vet) the files to update first, so a refused file costs no measuring time.
  std::map<std::string, std::string> paths;
  std::map<std::string, BaselineFile> files;
  for (const std::string& ep : o.eps) {
    StatusOr<std::string> path_or = BaselineFilePath(o, fp, ep);
    if (!path_or.ok()) return Fail(o, "baseline update", path_or.status());
    const std::string path = *path_or;
    paths[ep] = path;
    auto existing = ReadBaseline(path);
    if (existing.ok()) {
      if (Status st = CheckBaselineApplies(*existing, path, fp, runtime.name(), ep, clock,
                                           o.settings.optimization_level);
          !st.ok()) {
        return Fail(o, "baseline update",
                    st.WithContext("not updating it (delete the file to start over)"));
      }
      files[ep] = std::move(existing).value();
    } else if (existing.status().code() == StatusCode::kNotFound) {
      BaselineFile fresh;
      fresh.fingerprint = fp;
      fresh.runtime = runtime.name();
      fresh.ep = ep;
      fresh.clock = clock;
      fresh.optimization_level = o.settings.optimization_level;
      files[ep] = fresh;
    } else {
      return Fail(o, "baseline update", existing.status());
    }
  }

  TempDir temp;
  auto models = ResolveModels(o, &temp);
  if (!models.ok()) return Fail(o, "baseline update", models.status());
  PrintHeader(o, fp, models->size());
  auto measured = MeasureAll(o, runtime, *models);
  if (!measured.ok()) return Fail(o, "baseline update", measured.status());

  std::vector<LatencyRecord> records;
  std::map<std::string, std::vector<BaselineEntry>> fresh;
  const std::string now = UtcNowIso8601();
  for (const BenchMeasurement& m : *measured) {
    records.push_back(ToRecord(m));
    BaselineEntry e;
    e.model = m.model;
    e.threads = m.threads;
    e.model_sha256 = m.model_sha256;
    e.iterations_per_repetition = m.iterations_per_repetition;
    e.samples_ms = m.samples_ms;
    e.median_ms = m.summary.median;
    e.min_ms = m.summary.min;
    e.p90_ms = m.summary.p90;
    e.p99_ms = m.summary.p99;
    e.mean_ms = m.summary.mean;
    e.cv = m.summary.cv;
    e.load_ms = m.load_ms;
    e.first_run_ms = m.first_run_ms;
    e.recorded = now;
    fresh[m.ep].push_back(std::move(e));
  }
  std::fprintf(o.out, "\n%s", RenderBenchTable(records, false).c_str());
  for (auto& [ep, file] : files) {
    file.tool_version = o.tool_version;
    file.updated = now;
    // Read again, merged and written under the folder's lock: a concurrent update keeps its
    // entries.
    StatusOr<BaselineFile> written = UpdateBaselineFile(paths[ep], file, fresh[ep]);
    if (!written.ok()) return Fail(o, "baseline update", written.status());
    std::fprintf(o.out, "wrote %zu new entr%s to %s (%zu in the file)\n", fresh[ep].size(),
                 fresh[ep].size() == 1 ? "y" : "ies", paths[ep].c_str(), written->entries.size());
  }
  return kExitOk;
}

}  // namespace onnxgate
