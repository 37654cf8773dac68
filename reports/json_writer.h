// JSON run report (schema "onnxgate-run", documented in docs/report-json-schema.md): the whole
// RunRecord, written for tools and read back by `expectations update --from` and `ops --results`.
#pragma once

#include <string>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// The report as pretty-printed JSON. Invalid UTF-8 in strings is replaced by U+FFFD; doubles
// that JSON cannot hold (infinities, NaN) are written as the strings "inf", "-inf", "nan".
std::string RenderRunJson(const RunRecord& run);

// Renders and writes atomically to `path`.
Status WriteRunJson(const RunRecord& run, const std::string& path);

// Parses a report. `source` names the text in errors (a file name). Errors: DataLoss for text
// that is not JSON or whose totals disagree with its cases, InvalidArgument naming the field
// for a missing or mistyped field, Unimplemented for a schema_version newer than this reader.
// Unknown fields are ignored, so reports from newer writers of the same version still read.
StatusOr<RunRecord> ParseRunJson(const std::string& text, const std::string& source);

// Reads and parses the report at `path`; errors name the file.
StatusOr<RunRecord> ReadRunJson(const std::string& path);

}  // namespace onnxgate
