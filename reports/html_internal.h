// Pieces shared by the files of the HTML writer; not part of its interface.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "reports/html_writer.h"
#include "reports/records.h"

namespace onnxgate {
namespace html_internal {

// Text from the records, cleaned and escaped for element content or a quoted attribute value.
std::string Text(std::string_view text);
std::string Attr(std::string_view text);

// The anchor (element id) of each case shown in the failing-case table, by case name and target
// (TargetName), so a matrix cell can link to its first failing case.
using CaseAnchors = std::map<std::pair<std::string, std::string>, std::string>;

// The op x version x target (EP, or runtime/EP side by side) grid with its legend; `folded`:
// inside a closed <details> under the heading, with rows for the ops the cases use only (a run
// of models).
void WriteMatrixSection(std::ostringstream& out, const RunRecord& run, const HtmlOptions& options,
                        const CaseAnchors& anchors, bool folded = false);
// Counts per runtime/EP and the op versions where they disagree; nothing for a run of one.
void WriteSideBySideSection(std::ostringstream& out, const RunRecord& run,
                            const HtmlOptions& options);
// Operators and op versions without a case; `folded` as for the matrix.
void WriteCoverageSection(std::ostringstream& out, const RunRecord& run, bool folded = false);
// The latency table and a bar chart of median against baseline.
void WriteLatencySection(std::ostringstream& out, const RunRecord& run, const HtmlOptions& options);

}  // namespace html_internal
}  // namespace onnxgate
