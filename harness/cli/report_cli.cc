// `onnxgate report RUN.json`: renders a run's JSON report again as JUnit XML, Markdown, HTML or
// JSON, with no case run again.
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/run_publish.h"
#include "reports/json_writer.h"

namespace onnxgate {

namespace {

struct ReportFlags {
  std::string from;
  std::string json_path, junit_path, markdown_path, html_path;
  JunitSchema junit_schema = JunitSchema::kStrict;
};

}  // namespace

void AddReportOutputs(CLI::App* cmd, std::string* json, std::string* junit, std::string* markdown,
                      std::string* html, JunitSchema* schema) {
  cmd->add_option("--json", *json, "Write the JSON report (docs/report-json-schema.md)");
  cmd->add_option("--junit", *junit, "Write a JUnit XML report");
  AddJunitSchemaOption(cmd, schema);
  cmd->add_option("--markdown", *markdown, "Write a Markdown summary");
  cmd->add_option("--html", *html, "Write one self-contained HTML page");
}

bool WriteReportsOf(const RunRecord& run, const std::string& json, const std::string& junit,
                    const std::string& markdown, const std::string& html, JunitSchema schema) {
  RunCommandOptions paths;
  paths.json_path = json;
  paths.junit_path = junit;
  paths.markdown_path = markdown;
  paths.html_path = html;
  paths.junit_schema = schema;
  return WriteReports(paths, run);
}

void AddReportCommand(CLI::App& app, CliContext& ctx) {
  static ReportFlags f;
  CLI::App* cmd = app.add_subcommand(
      "report", "Render a run's JSON report again as JUnit XML, Markdown, HTML or JSON");
  cmd->add_option("from", f.from, "JSON report of a run (onnxgate run/gate/merge --json)")
      ->required();
  AddReportOutputs(cmd, &f.json_path, &f.junit_path, &f.markdown_path, &f.html_path,
                   &f.junit_schema);
  cmd->callback([&ctx] {
    ctx.action = [] {
      if (f.json_path.empty() && f.junit_path.empty() && f.markdown_path.empty() &&
          f.html_path.empty()) {
        std::fprintf(stderr,
                     "onnxgate report: name a report to write (--json, --junit, "
                     "--markdown or --html)\n");
        return 2;
      }
      StatusOr<RunRecord> run = ReadRunJson(f.from);
      if (!run.ok()) {
        std::fprintf(stderr, "onnxgate report: %s\n", run.status().message().c_str());
        return 2;
      }
      return WriteReportsOf(*run, f.json_path, f.junit_path, f.markdown_path, f.html_path,
                            f.junit_schema)
                 ? 0
                 : 2;
    };
  });
}

}  // namespace onnxgate
