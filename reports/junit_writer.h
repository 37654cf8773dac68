// JUnit XML report: one <testsuite> per suite, one <testcase> per case x EP, and a "latency"
// suite with one testcase per measured model, in the form CI systems (Jenkins, GitLab, GitHub
// test reporters) read.
#pragma once

#include <string>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Which JUnit dialect to write.
enum class JunitSchema {
  // Valid under the strict JUnit schema that Jenkins' xunit plugin applies, written down in
  // reports/junit-strict.xsd: no <properties> inside a <testcase> (a case's properties become
  // "name: value" lines of its <system-out>), no skipped or timestamp on <testsuites>.
  kStrict,
  // The strict form plus what GitLab and Jenkins' JUnit plugin also read: <properties> per
  // <testcase>, and skipped and timestamp on <testsuites>.
  kExtended,
};
// "strict", "extended".
const char* JunitSchemaName(JunitSchema schema);
StatusOr<JunitSchema> JunitSchemaFromName(const std::string& name);

// The whole report as an XML 1.0 document in UTF-8. Text from the records is sanitized
// (invalid UTF-8 replaced, forbidden control characters dropped) and escaped. A case's
// classname is "<suite>.<op>" for a case of one op and "<suite>.<case>" for a model of several,
// so CI tabs group by suite, then op or model.
std::string RenderJunitXml(const RunRecord& run, JunitSchema schema = JunitSchema::kStrict);

// Renders and writes atomically to `path`.
Status WriteJunitXml(const RunRecord& run, const std::string& path,
                     JunitSchema schema = JunitSchema::kStrict);

}  // namespace onnxgate
