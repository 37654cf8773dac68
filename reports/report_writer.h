// The report-writer interface: a run is published through a list of (path, writer) pairs, one
// implementation per format (JSON, JUnit XML, Markdown, HTML), so a command names the formats it
// writes instead of spelling out how each one is written.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reports/html_writer.h"
#include "reports/junit_writer.h"
#include "reports/markdown_writer.h"
#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  // Renders `run` and writes it atomically to `path`; errors name the path.
  virtual Status Write(const RunRecord& run, const std::string& path) const = 0;
};

// The JSON run report (json_writer.h).
std::unique_ptr<ReportWriter> NewJsonReportWriter();
// JUnit XML in `schema`'s dialect (junit_writer.h).
std::unique_ptr<ReportWriter> NewJunitReportWriter(JunitSchema schema);
// The Markdown summary (markdown_writer.h).
std::unique_ptr<ReportWriter> NewMarkdownReportWriter(MarkdownOptions options = {});
// The HTML page (html_writer.h).
std::unique_ptr<ReportWriter> NewHtmlReportWriter(HtmlOptions options = {});

// One report a command writes: where, and in which format.
struct ReportTarget {
  std::string path;
  std::unique_ptr<ReportWriter> writer;
};

// Adds a target for `path` unless it is empty (the option was not given).
void AddReportTarget(const std::string& path, std::unique_ptr<ReportWriter> writer,
                     std::vector<ReportTarget>* targets);

}  // namespace onnxgate
