// `onnxgate matrix --report A.json --report B.json ...`: one compatibility matrix (op x op version
// x runtime/EP, harness/compat_matrix.h) from the JSON reports of several runs, as HTML and JSON.
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/compat_matrix.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

struct MatrixFlags {
  std::vector<std::string> reports;
  std::string json_path, html_path;
};

// Writes `text` to `path` when it is named; false after printing why it could not be written.
bool WriteIfNamed(const std::string& path, const std::string& text) {
  if (path.empty()) return true;
  if (Status st = WriteFileAtomically(path, text); !st.ok()) {
    std::fprintf(stderr, "onnxgate matrix: %s\n", st.message().c_str());
    return false;
  }
  return true;
}

int RunMatrix(const MatrixFlags& f) {
  std::vector<CompatReport> reports;
  for (const std::string& path : f.reports) {
    StatusOr<RunRecord> run = ReadRunJson(path);
    if (!run.ok()) {
      std::fprintf(stderr, "onnxgate matrix: %s\n", run.status().message().c_str());
      return 2;
    }
    reports.push_back({path, std::move(run).value()});
  }
  StatusOr<CompatMatrix> matrix = BuildCompatMatrix(reports);
  if (!matrix.ok()) {
    std::fprintf(stderr, "onnxgate matrix: %s\n", matrix.status().message().c_str());
    return 2;
  }
  std::printf("%s", CompatMatrixSummary(*matrix).c_str());
  if (!WriteIfNamed(f.json_path, RenderCompatMatrixJson(*matrix)) ||
      !WriteIfNamed(f.html_path, RenderCompatMatrixHtml(*matrix))) {
    return 2;
  }
  return 0;
}

}  // namespace

void AddMatrixCommand(CLI::App& app, CliContext& ctx) {
  static MatrixFlags f;
  CLI::App* cmd = app.add_subcommand(
      "matrix",
      "One compatibility matrix across runtimes from JSON run reports: op x op version x "
      "runtime/EP with passed of run per cell, and the cases that pass in one column and not in "
      "another. Exit 0 when written, 2 for a report that cannot be read, is not a run report or "
      "repeats a runtime/EP another report holds");
  cmd->add_option("--report", f.reports,
                  "JSON report of a run or gate (--json) of one or more runtimes/EPs; repeatable, "
                  "one column per runtime/EP in the order given")
      ->required();
  cmd->add_option("--json", f.json_path,
                  "Write the matrix as JSON (docs/report-json-schema.md, onnxgate-compat-matrix)");
  cmd->add_option("--html", f.html_path, "Write the matrix as one self-contained HTML page");
  cmd->callback([&ctx] { ctx.action = [] { return RunMatrix(f); }; });
}

}  // namespace onnxgate
