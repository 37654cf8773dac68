// JUnit XML report: one <testsuite> per suite, one <testcase> per case x EP, and a "latency"
// suite with one testcase per measured model, in the form CI systems (Jenkins, GitLab, GitHub
// test reporters) read.
#pragma once

#include <string>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The whole report as an XML 1.0 document in UTF-8. Text from the records is sanitized
// (invalid UTF-8 replaced, forbidden control characters dropped) and escaped.
std::string RenderJunitXml(const RunRecord& run);

// Renders and writes atomically to `path`.
Status WriteJunitXml(const RunRecord& run, const std::string& path);

}  // namespace onnxgate
