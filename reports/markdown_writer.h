// Markdown summary of a run, sized for a CI job page (GitHub's job summary, a GitLab note):
// totals per verdict, the conformance matrix of the ops that are not all passing, the operator
// coverage, the non-passing cases with their reproducers, the latency alerts. A run of models
// (reports/model_summary.h) opens instead on each model's margins to its tolerances and its
// failing nodes, ends on the matrix and leaves the operator coverage out.
#pragma once

#include <cstddef>
#include <string>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

struct MarkdownOptions {
  std::string title;      // empty: by command (RunTitle: "onnxgate gate" or "onnxgate run")
  size_t max_cases = 50;  // rows of the non-passing table before "... and N more"
  size_t max_message_chars = 160;  // per table cell
  size_t max_margin_chars = 400;   // a model's margins, all its outputs together
  size_t max_latency_alerts = 50;
  size_t max_matrix_ops = 40;  // matrix rows (ops not all passing) before "... and N more"
  size_t max_matrix_row_chars = 600;
  size_t max_uncovered_ops = 60;  // names in the list of operators without a case
};

// Text from the records is made valid UTF-8, stripped of control characters, kept to one line
// and escaped so it cannot break the table or inject markup.
std::string RenderMarkdown(const RunRecord& run, const MarkdownOptions& options = {});

// Renders and writes atomically to `path`.
Status WriteMarkdown(const RunRecord& run, const std::string& path,
                     const MarkdownOptions& options = {});

}  // namespace onnxgate
