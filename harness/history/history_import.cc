// Baselines and JSON reports -> history entries -> a store.
#include "harness/history/history_import.h"

#include <cstdlib>

#include "reports/json_writer.h"
#include "runtime/base/contained_file.h"
#include "runtime/base/json_reader.h"

namespace onnxgate {

namespace {

// The value of `--name VALUE` or `--name=VALUE` in a command line, the last one given; empty
// when absent.
std::string FlagValue(const std::vector<std::string>& command_line, const std::string& name) {
  std::string value;
  for (size_t i = 0; i < command_line.size(); ++i) {
    const std::string& word = command_line[i];
    if (word == name && i + 1 < command_line.size()) {
      value = command_line[i + 1];
    } else if (word.rfind(name + "=", 0) == 0) {
      value = word.substr(name.size() + 1);
    }
  }
  return value;
}

int64_t OptimizationLevelOf(const RunRecord& run) {
  const std::string level = FlagValue(run.command_line, "--optimization-level");
  return level.empty() ? 0 : std::strtoll(level.c_str(), nullptr, 10);
}

// The build type a bench report's Google Benchmark context names ("release"), else empty.
std::string BuildTypeOf(const JsonDocument& doc) {
  const nlohmann::json& root = doc.raw();
  const auto context = root.find("context");
  if (context == root.end() || !context->is_object()) return "";
  const auto type = context->find("library_build_type");
  return type != context->end() && type->is_string() ? type->get<std::string>() : "";
}

}  // namespace

HistoryRun HistoryFromBaseline(const BaselineFile& file, const HistoryImportOptions& options) {
  HistoryRun run;
  HistoryContext& c = run.context;
  c.kind = "bench";
  c.commit = options.commit;
  c.branch = options.branch;
  c.tool_version = file.tool_version;
  c.runtime = file.runtime;
  c.machine = file.fingerprint.Id();
  c.recorded = file.updated;
  for (const BaselineEntry& e : file.entries) {
    LatencyPoint p;
    p.key.model = e.model;
    p.key.runtime = file.runtime;
    p.key.ep = file.ep;
    p.key.threads = e.threads;
    p.key.shapes = e.shapes;
    p.key.optimization_level = file.optimization_level;
    p.key.clock = file.clock;
    p.model_sha256 = e.model_sha256;
    p.samples = static_cast<int64_t>(e.samples_ms.size());
    p.median_ms = e.median_ms;
    p.min_ms = e.min_ms;
    p.p90_ms = e.p90_ms;
    p.mean_ms = e.mean_ms;
    p.cv = e.cv;
    run.latency.push_back(p);
  }
  return run;
}

HistoryRun HistoryFromReport(const RunRecord& run, const std::string& build_type,
                             const HistoryImportOptions& options) {
  HistoryTarget target;
  target.commit = options.commit;
  target.branch = options.branch;
  MachineFingerprint fp;
  fp.cpu_model = run.host.cpu_model.empty() ? "unknown-cpu" : run.host.cpu_model;
  fp.logical_cores = run.host.logical_cores;
  fp.build_type = build_type.empty() ? CompiledBuildType() : build_type;
  target.machine = fp.Id();
  target.optimization_level = OptimizationLevelOf(run);
  const std::string clock = FlagValue(run.command_line, "--clock");
  target.clock = clock.empty() ? "wall" : clock;
  return HistoryFromRun(run, target);
}

StatusOr<HistoryRun> ReadHistoryFile(const std::string& path, const HistoryImportOptions& options) {
  ONNXGATE_ASSIGN_OR_RETURN(const std::string text,
                            ReadRegularFile(path, kMaxJsonFileBytes, "history import file"));
  ONNXGATE_ASSIGN_OR_RETURN(JsonDocument doc, JsonDocument::Parse(text, path));
  const nlohmann::json& root = doc.raw();
  if (root.is_object() && root.contains("format")) {
    ONNXGATE_ASSIGN_OR_RETURN(BaselineFile file, ParseBaselineJson(text, path));
    return HistoryFromBaseline(file, options);
  }
  if (root.is_object() && root.contains("schema")) {
    ONNXGATE_ASSIGN_OR_RETURN(RunRecord run, ParseRunJson(text, path));
    return HistoryFromReport(run, BuildTypeOf(doc), options);
  }
  return InvalidArgument(path +
                         ": neither a latency baseline (\"format\") nor a JSON report of bench, "
                         "gate or run (\"schema\")");
}

StatusOr<std::vector<int64_t>> ImportHistoryFiles(ResultsStore& store,
                                                  const std::vector<std::string>& paths,
                                                  const HistoryImportOptions& options) {
  std::vector<HistoryRun> runs;
  for (const std::string& path : paths) {
    ONNXGATE_ASSIGN_OR_RETURN(HistoryRun run, ReadHistoryFile(path, options));
    runs.push_back(std::move(run));
  }
  std::vector<int64_t> ids;
  for (const HistoryRun& run : runs) {
    ONNXGATE_ASSIGN_OR_RETURN(const int64_t id, store.Append(run));
    ids.push_back(id);
  }
  return ids;
}

}  // namespace onnxgate
