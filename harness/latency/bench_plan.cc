// The plan of a bench: options, models, thresholds and baselines, the run record's header.
#include "harness/latency/bench_plan.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "harness/ep_target.h"
#include "harness/zoo/zoo.h"

namespace onnxgate {

namespace fs = std::filesystem;

namespace {

bool MatchesAny(const std::vector<std::string>& globs, const std::string& name) {
  if (globs.empty()) return true;
  for (const std::string& g : globs) {
    if (::fnmatch(g.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

std::string BaselinesDir(const BenchCommandOptions& o) {
  return o.baselines_dir.empty() ? o.root + "/golden/baselines" : o.baselines_dir;
}

HostRecord DescribeHost(const MachineFingerprint& fp) {
  HostRecord h;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  h.cpu_model = fp.cpu_model;
  h.logical_cores = fp.logical_cores;
  return h;
}

}  // namespace

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

Status TempDir::Create() {
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

StatusOr<std::vector<std::string>> ResolveBenchModels(const BenchCommandOptions& o, TempDir* temp) {
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

Status ValidateBenchOptions(const BenchCommandOptions& o) {
  if (o.eps.empty()) return InvalidArgument("give at least one --ep");
  for (const std::string& ep : o.eps) ONNXGATE_RETURN_IF_ERROR(ParseEpTarget(ep).status());
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

StatusOr<std::string> BaselineFilePath(const BenchCommandOptions& o, const MachineFingerprint& fp,
                                       const std::string& ep) {
  if (!o.baseline_file.empty()) return o.baseline_file;
  return BaselinePath(BaselinesDir(o), fp, ep);
}

StatusOr<LatencyThresholds> LoadBenchThresholds(const BenchCommandOptions& o) {
  return LoadLatencyThresholds(o.thresholds_file.empty() ? BaselinesDir(o) + "/thresholds.json"
                                                         : o.thresholds_file);
}

StatusOr<BenchBaselines> LoadBenchBaselines(const BenchCommandOptions& o,
                                            const MachineFingerprint& fp,
                                            const RuntimeUnderTest& runtime) {
  BenchBaselines baselines;
  for (const std::string& ep : o.eps) {
    ONNXGATE_ASSIGN_OR_RETURN(const std::string path, BaselineFilePath(o, fp, ep));
    baselines.paths[ep] = path;
    auto file = ReadBaseline(path);
    if (!file.ok() && file.status().code() == StatusCode::kNotFound && o.baseline_file.empty()) {
      baselines.files[ep] = std::nullopt;
      continue;
    }
    if (!file.ok()) return file.status().WithContext("reading the latency baseline");
    ONNXGATE_RETURN_IF_ERROR(CheckBaselineApplies(*file, path, fp, runtime.name(), ep,
                                                  BenchClockName(o.settings.clock),
                                                  o.settings.optimization_level));
    baselines.files[ep] = std::move(file).value();
  }
  return baselines;
}

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

}  // namespace onnxgate
