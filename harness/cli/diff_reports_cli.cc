// `onnxgate diff-reports BEFORE.json AFTER.json`: which cases changed verdict between two runs,
// and which still pass with a larger error (harness/report_diff.h); exit 1 when any got worse.
#include <cstdio>

#include "harness/cli/cli.h"
#include "harness/report_diff.h"
#include "reports/json_writer.h"
#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

struct DiffReportsFlags {
  std::string before, after;
  std::string json_path, markdown_path, html_path;
};

// Writes `text` to `path` when it is named; false after printing why it could not be written.
bool WriteIfNamed(const std::string& path, const std::string& text) {
  if (path.empty()) return true;
  if (Status st = WriteFileAtomically(path, text); !st.ok()) {
    std::fprintf(stderr, "onnxgate diff-reports: %s\n", st.message().c_str());
    return false;
  }
  return true;
}

}  // namespace

void AddDiffReportsCommand(CLI::App& app, CliContext& ctx) {
  static DiffReportsFlags f;
  CLI::App* cmd = app.add_subcommand(
      "diff-reports",
      "Which cases changed verdict between two JSON reports, by op version, and which still pass "
      "with a larger error (more than 2x and at least 10% of the tolerance); exit 1 when a case "
      "got worse. Cases are matched by suite, name and runtime/EP, or by suite and name alone "
      "when each report has one runtime/EP");
  cmd->add_option("before", f.before, "JSON report of the earlier run (a release's)")->required();
  cmd->add_option("after", f.after, "JSON report of the later run (a candidate's)")->required();
  cmd->add_option("--json", f.json_path, "Write the changes as JSON");
  cmd->add_option("--markdown", f.markdown_path, "Write the changes as Markdown");
  cmd->add_option("--html", f.html_path,
                  "Write the changes as one self-contained HTML page, grouped by op version");
  cmd->callback([&ctx] {
    ctx.action = [] {
      StatusOr<RunRecord> before = ReadRunJson(f.before);
      StatusOr<RunRecord> after = before.ok() ? ReadRunJson(f.after) : before.status();
      if (!after.ok()) {
        std::fprintf(stderr, "onnxgate diff-reports: %s\n", after.status().message().c_str());
        return 2;
      }
      const ReportDiff diff = DiffReports(*before, *after);
      std::printf("%s", RenderReportDiffText(diff).c_str());
      if (!WriteIfNamed(f.json_path, RenderReportDiffJson(diff)) ||
          !WriteIfNamed(f.markdown_path, RenderReportDiffMarkdown(diff)) ||
          !WriteIfNamed(f.html_path, RenderReportDiffHtml(diff, f.before, f.after))) {
        return 2;
      }
      return diff.Count(VerdictChange::kWorse) > 0 ? 1 : 0;
    };
  });
}

}  // namespace onnxgate
