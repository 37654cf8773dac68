// PlanRun: options, runtimes' EPs, suites, tolerances, expectations and the case requests.
#include "harness/run_plan.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "conformance/expectations_naming.h"
#include "harness/ep_target.h"
#include "harness/selection.h"
#include "reports/json_writer.h"
#include "reports/text_escape.h"

namespace onnxgate {

namespace fs = std::filesystem;

namespace {

// Every EP of every runtime is a target ParseEpTarget accepts, each of whose providers the
// runtime lists or can say what it claims (a plugin may list only its main providers).
Status CheckEps(const std::vector<RuntimeInRun>& runtimes) {
  for (const RuntimeInRun& r : runtimes) {
    for (const std::string& ep : r.eps) {
      ONNXGATE_ASSIGN_OR_RETURN(EpTarget target, ParseEpTarget(ep));
      ONNXGATE_RETURN_IF_ERROR(CheckTargetOffered(*r.runtime, target));
    }
  }
  return OkStatus();
}

Status LoadSuites(RunPlan* plan) {
  const RunCommandOptions& options = plan->options;
  if (options.suites.empty()) return InvalidArgument("no suite given (--suite NAME)");
  const std::string suites_dir = (fs::path(options.root) / "suites").string();
  for (const std::string& name : options.suites) {
    ONNXGATE_ASSIGN_OR_RETURN(Suite suite, LoadSuite(suites_dir, name));
    plan->suites.push_back(std::move(suite));
  }
  return CheckExactCasesExist(plan->suites, options.selection);
}

// --tolerances, else <root>/conformance/tolerances.json when it exists, else ONNX's defaults.
Status LoadTolerances(RunPlan* plan) {
  std::string file = plan->options.tolerances_file;
  if (file.empty()) {
    const fs::path def = fs::path(plan->options.root) / "conformance" / "tolerances.json";
    if (fs::exists(def)) file = def.string();
  }
  if (file.empty()) return OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(plan->tolerances, ToleranceLayers::LoadFile(file));
  return OkStatus();
}

// Gate: the file ExpectationsFileName names in the expectations folder, per runtime and EP.
Status LoadExpectations(RunPlan* plan) {
  const RunCommandOptions& options = plan->options;
  if (!options.apply_expectations) return OkStatus();
  const std::string dir = options.expectations_dir.empty()
                              ? (fs::path(options.root) / "conformance" / "expectations").string()
                              : options.expectations_dir;
  for (size_t i = 0; i < plan->runtimes.size(); ++i) {
    const RuntimeInRun& runtime = plan->runtimes[i];
    const ExpectationsOwner owner =
        ExpectationsOwnerOf(runtime.spec, runtime.expectations_name, runtime.runtime->name());
    for (const std::string& ep : runtime.eps) {
      ONNXGATE_ASSIGN_OR_RETURN(std::string name, ExpectationsFileName(owner, ep));
      const std::string path = (fs::path(dir) / name).string();
      ONNXGATE_ASSIGN_OR_RETURN(ExpectationFile file, LoadExpectationsOrEmpty(path, ep));
      std::error_code ec;
      if (fs::exists(path, ec)) plan->expectations_found.insert({i, ep});
      plan->expectations[{i, ep}] = std::move(file);
      plan->expectation_paths[{i, ep}] = path;
    }
  }
  return OkStatus();
}

Status BuildRequests(RunPlan* plan) {
  for (const Suite& suite : plan->suites) {
    for (const SuiteCase* c : SelectCases(suite, plan->options.selection)) {
      for (size_t i = 0; i < plan->runtimes.size(); ++i) {
        for (const std::string& ep : plan->runtimes[i].eps) {
          plan->requests.push_back({&suite, c, i, ep});
        }
      }
    }
  }
  if (plan->requests.empty()) {
    return InvalidArgument(
        "no case matches the selection (check --case, --filter, --op, --opset, --tag)");
  }
  return OkStatus();
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

SelectionRecord DescribeSelection(const RunPlan& plan) {
  SelectionRecord s;
  for (const auto& f : plan.options.selection.filters) {
    s.filter += (s.filter.empty() ? "" : " ") + f;
  }
  for (const RuntimeInRun& r : plan.runtimes) {
    for (const std::string& ep : r.eps) {
      if (std::find(s.eps.begin(), s.eps.end(), ep) == s.eps.end()) s.eps.push_back(ep);
    }
  }
  s.shard_index = plan.options.selection.shard_index;
  s.shard_count = plan.options.selection.shard_count;
  return s;
}

}  // namespace

StatusOr<RunPlan> PlanRun(const RunCommandOptions& options,
                          const std::vector<RuntimeInRun>& runtimes) {
  ONNXGATE_RETURN_IF_ERROR(ValidateRunOptions(options));
  if (runtimes.empty()) return InvalidArgument("no runtime to run");
  // Usage checks first: unknown EPs and suites are exit 2 before anything runs.
  ONNXGATE_RETURN_IF_ERROR(CheckEps(runtimes));
  RunPlan plan;
  plan.options = options;
  plan.runtimes = runtimes;
  std::vector<const RuntimeUnderTest*> named;
  for (const RuntimeInRun& r : runtimes) named.push_back(r.runtime);
  plan.labels = RuntimeLabels(named);
  plan.side_by_side = runtimes.size() > 1;
  ONNXGATE_RETURN_IF_ERROR(LoadSuites(&plan));
  ONNXGATE_RETURN_IF_ERROR(LoadTolerances(&plan));
  ONNXGATE_RETURN_IF_ERROR(LoadExpectations(&plan));
  ONNXGATE_RETURN_IF_ERROR(BuildRequests(&plan));
  if (!options.against_report.empty()) {
    StatusOr<RunRecord> release = ReadRunJson(options.against_report);
    if (!release.ok()) return release.status().WithContext("--against-report");
    plan.release = std::move(release).value();
  }
  return plan;
}

RunRecord StartRunRecord(const RunPlan& plan) {
  RunRecord run;
  run.tool_version = ONNXGATE_VERSION;
  run.runtime_name = plan.runtimes[0].runtime->name();
  run.runtime_version = plan.runtimes[0].runtime->version();
  for (size_t i = 0; i < plan.runtimes.size(); ++i) {
    const RuntimeInRun& r = plan.runtimes[i];
    run.runtimes.push_back({plan.labels[i], r.runtime->name(), r.runtime->version(), r.spec});
  }
  run.start_time = std::chrono::system_clock::now();
  run.command_line = plan.options.command_line;
  run.isolation = IsolationName(plan.options.isolation);
  run.host = DescribeHost();
  run.suites = plan.options.suites;
  run.selection = DescribeSelection(plan);
  return run;
}

}  // namespace onnxgate
