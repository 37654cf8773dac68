// `onnxgate expectations update --from <run.json>`: rewrite an EP's expectations from a run.
#include <cstdio>
#include <filesystem>
#include <set>

#include "conformance/expectations_naming.h"
#include "conformance/expectations_update.h"
#include "harness/cli/cli.h"
#include "harness/runtime_factory.h"
#include "reports/json_writer.h"

namespace onnxgate {

namespace {
struct UpdateFlags {
  std::string from;
  std::string runtime;
  std::string ep;
  std::string file;
};

// The owner of the report's runtime as the run named it; a report without "runtimes" (older
// than side-by-side runs) was a run of the built-in runtime.
ExpectationsOwner OwnerInReport(const RunRecord& run) {
  if (run.runtimes.empty()) return {ExpectationsOwner::Kind::kBuiltin, ""};
  const RuntimeRecord& r = run.runtimes[0];
  return ExpectationsOwnerOf(r.spec, IsRegistryName(r.spec) ? r.spec : "", r.name);
}

// --runtime NAME: "builtin" or the built-in runtime's name, the report's runtime by its spec or
// name (its owner then), else a registry name.
ExpectationsOwner OwnerNamed(const std::string& name, const RunRecord& run) {
  if (name == kBuiltinRuntimeSpec || name == kBuiltinRuntimeName) {
    return {ExpectationsOwner::Kind::kBuiltin, ""};
  }
  for (const RuntimeRecord& r : run.runtimes) {
    if (name == r.spec || name == r.name) return OwnerInReport(run);
  }
  return {ExpectationsOwner::Kind::kRegistry, name};
}

}  // namespace

void AddExpectationsCommand(CLI::App& app, CliContext& ctx) {
  static UpdateFlags f;
  CLI::App* cmd = app.add_subcommand(
      "expectations",
      "Maintain conformance/expectations: <ep>.json (built-in runtime), <registry name>.json, "
      "<runtime name>.<ep>.json (any other runtime)");
  cmd->require_subcommand(1);
  CLI::App* update = cmd->add_subcommand(
      "update",
      "Rewrite the expectations of an EP from a run's JSON report: one entry per case that did "
      "not pass, existing reasons kept, new entries marked \"review\": true; \"nondeterministic\" "
      "entries stay while their cases pass or fail in values only");
  update->add_option("--from", f.from, "JSON report of a run (onnxgate run/gate --json)")
      ->required();
  update->add_option("--runtime", f.runtime,
                     "Registry or runtime name whose file to rewrite (default: the report's "
                     "runtime)");
  update->add_option("--ep", f.ep, "EP whose expectations to rewrite (default: the run's only EP)");
  update->add_option("--file", f.file,
                     "Expectation file (default: the one gate reads for the runtime and EP)");
  update->callback([&ctx] {
    ctx.action = [&ctx] {
      auto run = ReadRunJson(f.from);
      if (!run.ok()) {
        std::fprintf(stderr, "onnxgate expectations update: %s\n", run.status().message().c_str());
        return 2;
      }
      // Each runtime is judged by its own file, and two runtimes may share an EP name.
      if (run->runtimes.size() > 1) {
        std::fprintf(stderr,
                     "onnxgate expectations update: %s holds %zu runtimes side by side; each "
                     "keeps its own expectations, so update from a run of one runtime\n",
                     f.from.c_str(), run->runtimes.size());
        return 2;
      }
      std::set<std::string> eps;
      for (const CaseRecord& r : run->cases) eps.insert(r.ep);
      std::string ep = f.ep;
      if (ep.empty()) {
        if (eps.size() != 1) {
          std::fprintf(stderr,
                       "onnxgate expectations update: %s holds %zu EPs; choose one with --ep\n",
                       f.from.c_str(), eps.size());
          return 2;
        }
        ep = *eps.begin();
      }
      // The runtime and EP name the file written: a report saying "../../.." must not write
      // outside the folder.
      const ExpectationsOwner owner =
          f.runtime.empty() ? OwnerInReport(*run) : OwnerNamed(f.runtime, *run);
      auto file_name = ExpectationsFileName(owner, ep);
      if (!file_name.ok()) {
        std::fprintf(stderr, "onnxgate expectations update: %s: %s\n", f.from.c_str(),
                     file_name.status().message().c_str());
        return 2;
      }
      std::string path =
          f.file.empty()
              ? (std::filesystem::path(ctx.root) / "conformance" / "expectations" / *file_name)
                    .string()
              : f.file;
      // Reasons are read on other machines: paths inside the repository are written relative
      // to its root.
      std::error_code ec;
      const std::string root_prefix =
          std::filesystem::weakly_canonical(ctx.root, ec).string() + "/";
      std::vector<CaseRecord> of_ep;
      for (const CaseRecord& r : run->cases) {
        if (r.ep != ep) continue;
        of_ep.push_back(r);
        std::string& message = of_ep.back().message;
        for (size_t at; !ec && (at = message.find(root_prefix)) != std::string::npos;) {
          message.erase(at, root_prefix.size());
        }
      }
      // Read, rewritten and written under the lock of the file's folder: a concurrent update
      // waits and then starts from this one's file.
      auto written = UpdateExpectationsFile(path, ep, of_ep);
      if (!written.ok()) {
        std::fprintf(stderr, "onnxgate expectations update: %s\n",
                     written.status().message().c_str());
        return 2;
      }
      const ExpectationFile& updated = written->after;
      size_t review = 0;
      for (const auto& e : updated.entries) review += e.review ? 1 : 0;
      std::printf("wrote %s: %zu entries (%zu before), %zu marked for review\n",
                  ExpectationsPathShown(path, ctx.root).c_str(), updated.entries.size(),
                  written->before.entries.size(), review);
      return 0;
    };
  });
}

}  // namespace onnxgate
