// The plan of a bench: options, models, thresholds and baselines, the run record's header.
#include "harness/latency/bench_plan.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>

#include "harness/ep_target.h"
#include "harness/latency/bench_shapes.h"
#include "harness/models/input_sets.h"
#include "harness/zoo/zoo.h"
#include "reports/text_escape.h"
#include "runtime/model/model_file.h"

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

// --quick: the models named like the zoo's quick ones when there are any, else all.
std::vector<BenchModel> QuickModelsOf(std::vector<BenchModel> models) {
  std::vector<BenchModel> quick;
  for (const BenchModel& m : models) {
    for (const char* name : kQuickModels) {
      if (m.name == name) quick.push_back(m);
    }
  }
  return quick.empty() ? models : quick;
}

BenchModel ModelAt(std::string name, std::string path) {
  BenchModel m;
  m.name = std::move(name);
  m.path = std::move(path);
  return m;
}

bool IsModelFile(const fs::path& p) {
  return p.extension() == ".onnx" || p.extension() == ".onnxtxt";
}

// The model files directly in `dir` (links followed), in name order.
std::vector<fs::path> ModelFilesIn(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (IsModelFile(e.path()) && e.is_regular_file(ec)) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The models of a subfolder: model.onnx (or model.onnxtxt) is one named after the folder; else
// every model file in it is one, "<folder>/<name>". None: a warning on o.err.
void AddSubfolderModels(const BenchCommandOptions& o, const fs::path& dir,
                        std::vector<BenchModel>* models) {
  const std::string folder = dir.filename().string();
  for (const char* main : {"model.onnx", "model.onnxtxt"}) {
    std::error_code ec;
    if (fs::is_regular_file(dir / main, ec)) {
      models->push_back(ModelAt(folder, (dir / main).string()));
      return;
    }
  }
  const std::vector<fs::path> files = ModelFilesIn(dir);
  for (const fs::path& f : files) {
    models->push_back(ModelAt(folder + "/" + f.stem().string(), f.string()));
  }
  if (files.empty()) {
    std::fprintf(o.err,
                 "onnxgate bench: warning: %s holds no model.onnx and no other .onnx file; "
                 "nothing in it is measured\n",
                 EscapeForTerminal(dir.string()).c_str());
  }
}

// The models of --models: its model files, then its subfolders' (entries named ".*" skipped).
StatusOr<std::vector<BenchModel>> FindModelsIn(const BenchCommandOptions& o) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (const fs::directory_entry& e : fs::directory_iterator(o.models_dir, ec)) {
    if (e.path().filename().string().rfind('.', 0) != 0) entries.push_back(e);
  }
  if (ec) return NotFound("listing models in " + o.models_dir + ": " + ec.message());
  std::sort(entries.begin(), entries.end());
  std::vector<BenchModel> models;
  for (const fs::directory_entry& e : entries) {
    std::error_code type_ec;
    if (e.is_directory(type_ec)) {
      AddSubfolderModels(o, e.path(), &models);
    } else if (IsModelFile(e.path()) && e.is_regular_file(type_ec)) {
      models.push_back(ModelAt(ModelNameFromPath(e.path().string()), e.path().string()));
    }
  }
  std::sort(models.begin(), models.end(),
            [](const BenchModel& a, const BenchModel& b) { return a.name < b.name; });
  return models;
}

HostRecord DescribeHost(const MachineFingerprint& fp) {
  HostRecord h;
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  h.cpu_model = fp.cpu_model;
  h.logical_cores = fp.logical_cores;
  return h;
}

// --input files are one data set; with them each --dim gives one size and no --input-range.
Status ValidateBenchInputs(const BenchCommandOptions& o) {
  ONNXGATE_RETURN_IF_ERROR(BenchInputFiles(o).status());
  if (o.input_files.empty()) return OkStatus();
  for (const auto& [name, sizes] : o.dims) {
    if (sizes.size() != 1) {
      return InvalidArgument("--dim " + name + " gives " + std::to_string(sizes.size()) +
                             " sizes; with --input files each dimension takes one size");
    }
  }
  if (!o.input_ranges.empty()) {
    return InvalidArgument("--input-range " + o.input_ranges.begin()->first +
                           ": ranges are for generated inputs, and --input files are given");
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<std::string>> BenchInputFiles(const BenchCommandOptions& o) {
  if (o.input_files.empty()) return std::vector<std::string>{};
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<InputSet> sets, InputSetsOf(o.input_files, ""));
  if (sets.size() != 1) {
    return InvalidArgument("--input: a bench feeds every measurement one data set, got " +
                           std::to_string(sets.size()) + ": " + sets[0].shown + " and " +
                           sets[1].shown + (sets.size() > 2 ? ", ..." : ""));
  }
  return sets[0].files;
}

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

StatusOr<std::vector<BenchModel>> ResolveBenchModels(const BenchCommandOptions& o, TempDir* temp) {
  std::vector<BenchModel> models;
  if (o.models_dir.empty()) {
    ONNXGATE_RETURN_IF_ERROR(temp->Create());
    std::fprintf(o.out, "generating the model zoo into %s\n", temp->path().c_str());
    const std::vector<std::string> globs =
        o.quick_models ? std::vector<std::string>(std::begin(kQuickModels), std::end(kQuickModels))
                       : o.model_globs;
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<std::string> paths,
                              zoo::GenerateZoo(temp->path(), zoo::ZooModels(), globs));
    for (const std::string& path : paths) models.push_back(ModelAt(ModelNameFromPath(path), path));
    return models;
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<BenchModel> found, FindModelsIn(o));
  for (BenchModel& m : found) {
    if (MatchesAny(o.model_globs, m.name)) models.push_back(std::move(m));
  }
  if (o.quick_models) models = QuickModelsOf(std::move(models));
  if (models.empty()) {
    return NotFound("no .onnx model in " + o.models_dir +
                    (o.model_globs.empty() ? std::string() : " matches the --model patterns"));
  }
  return models;
}

Status PlanBenchShapes(const BenchCommandOptions& o, std::vector<BenchModel>* models) {
  std::map<std::string, std::set<std::string>> dims_by_model;
  for (BenchModel& m : *models) {
    auto file = ModelFile::Read(m.path);
    if (!file.ok()) {
      m.error = file.status().message();
      m.shapes = {DimSizes{}};
      continue;
    }
    m.dims = SymbolicInputDims(file->proto());
    m.shapes = BenchShapesOf(m.dims, o.dims);
    dims_by_model[m.name] = m.dims;
  }
  Status named = CheckDimsNamed(o.dims, dims_by_model);
  if (named.ok() || dims_by_model.size() == models->size()) return named;
  // A model that could not be read may have the dimension; it is reported as not measured.
  std::fprintf(o.err, "onnxgate bench: warning: %s\n", named.message().c_str());
  return OkStatus();
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
  return ValidateBenchInputs(o);
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
