// `onnxgate report RUN.json`: renders a run's JSON report again as JUnit XML, Markdown, HTML or
// JSON, with no case run again.
#include <cstdio>

#include "harness/cli/cli.h"
#include "reports/json_writer.h"
#include "reports/report_writer.h"

namespace onnxgate {

namespace {

struct ReportFlags {
  std::string from;
  std::string json_path, junit_path, markdown_path, html_path;
  JunitSchema junit_schema = JunitSchema::kStrict;
};

// Writes every report `f` names from `run`; false after printing why one could not be written.
bool WriteRendered(const RunRecord& run, ReportFlags& f, const char* command) {
  std::vector<ReportTarget> targets;
  AddReportTarget(f.json_path, NewJsonReportWriter(), &targets);
  AddReportTarget(f.junit_path, NewJunitReportWriter(f.junit_schema), &targets);
  AddReportTarget(f.markdown_path, NewMarkdownReportWriter(), &targets);
  AddReportTarget(f.html_path, NewHtmlReportWriter(), &targets);
  bool ok = true;
  for (const ReportTarget& t : targets) {
    if (Status st = t.writer->Write(run, t.path); !st.ok()) {
      std::fprintf(stderr, "onnxgate %s: %s\n", command, st.message().c_str());
      ok = false;
    }
  }
  return ok;
}

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
                    const std::string& markdown, const std::string& html, JunitSchema schema,
                    const char* command) {
  ReportFlags f;
  f.json_path = json;
  f.junit_path = junit;
  f.markdown_path = markdown;
  f.html_path = html;
  f.junit_schema = schema;
  return WriteRendered(run, f, command);
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
      return WriteRendered(*run, f, "report") ? 0 : 2;
    };
  });
}

}  // namespace onnxgate
