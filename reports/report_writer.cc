// One ReportWriter per report format, each a thin shell over its format's Write function.
#include "reports/report_writer.h"

#include <utility>

#include "reports/json_writer.h"

namespace onnxgate {

namespace {

class JsonReportWriter : public ReportWriter {
 public:
  Status Write(const RunRecord& run, const std::string& path) const override {
    return WriteRunJson(run, path);
  }
};

class JunitReportWriter : public ReportWriter {
 public:
  explicit JunitReportWriter(JunitSchema schema) : schema_(schema) {}
  Status Write(const RunRecord& run, const std::string& path) const override {
    return WriteJunitXml(run, path, schema_);
  }

 private:
  JunitSchema schema_;
};

class MarkdownReportWriter : public ReportWriter {
 public:
  explicit MarkdownReportWriter(MarkdownOptions options) : options_(std::move(options)) {}
  Status Write(const RunRecord& run, const std::string& path) const override {
    return WriteMarkdown(run, path, options_);
  }

 private:
  MarkdownOptions options_;
};

class HtmlReportWriter : public ReportWriter {
 public:
  explicit HtmlReportWriter(HtmlOptions options) : options_(std::move(options)) {}
  Status Write(const RunRecord& run, const std::string& path) const override {
    return WriteHtml(run, path, options_);
  }

 private:
  HtmlOptions options_;
};

}  // namespace

std::unique_ptr<ReportWriter> NewJsonReportWriter() { return std::make_unique<JsonReportWriter>(); }

std::unique_ptr<ReportWriter> NewJunitReportWriter(JunitSchema schema) {
  return std::make_unique<JunitReportWriter>(schema);
}

std::unique_ptr<ReportWriter> NewMarkdownReportWriter(MarkdownOptions options) {
  return std::make_unique<MarkdownReportWriter>(std::move(options));
}

std::unique_ptr<ReportWriter> NewHtmlReportWriter(HtmlOptions options) {
  return std::make_unique<HtmlReportWriter>(std::move(options));
}

void AddReportTarget(const std::string& path, std::unique_ptr<ReportWriter> writer,
                     std::vector<ReportTarget>* targets) {
  if (path.empty()) return;
  targets->push_back({path, std::move(writer)});
}

}  // namespace onnxgate
