// Text pieces shared by the report writers: times, numbers, shapes, placements, comparison
// summaries. Kept in one place so JUnit, Markdown and HTML say the same thing the same way.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// "2024-05-01T10:20:30.123Z" (UTC, milliseconds).
std::string FormatUtcTime(UtcTime time);
// "2024-05-01T10:20:30" (UTC, whole seconds, no zone), as the JUnit schema's timestamp wants.
std::string FormatJunitTimestamp(UtcTime time);
// Parses "YYYY-MM-DDTHH:MM:SS[.fraction]Z"; InvalidArgument naming the text otherwise.
StatusOr<UtcTime> ParseUtcTime(const std::string& text);

// Up to 6 significant digits, "inf", "-inf" or "nan".
std::string FormatNumber(double value);
// A share 0..1 as a percentage: "12.5%"; tiny non-zero shares stay visible ("<0.01%").
std::string FormatPercent(double share);
// A signed relative change: "+12.3%", "-4.0%".
std::string FormatChange(double ratio);
// "[1,3,224,224]"; "[]" for a scalar.
std::string FormatShape(const std::vector<int64_t>& dims);
// Nodes per EP, EPs sorted by name: "dnnl:2,ref:1". Empty when there are no placements.
std::string FormatPlacementCounts(const std::vector<PlacementRecord>& placements);
// The default domain's version alone, other domains as "domain:version": "13,com.microsoft:1".
std::string FormatOpsetImports(const std::map<std::string, int64_t>& imports);
// "Conv:11,Relu:14".
std::string FormatOpVersions(const std::map<std::string, int64_t>& versions);
// "Conv,Relu".
std::string JoinStrings(const std::vector<std::string>& parts, std::string_view separator);
// Joins argv for a POSIX shell, quoting what needs it.
std::string ShellJoin(const std::vector<std::string>& argv);

// "<case>[<ep>]".
std::string CaseDisplayName(const CaseRecord& c);
// Collapses whitespace runs (newlines included) to one space, trims, and cuts to at most
// `max_chars` bytes on a UTF-8 boundary with "..." at the end when it had to cut.
std::string OneLine(std::string_view text, size_t max_chars);

// One line on one output: what differs, by how much, where, and which tolerance would pass.
// E.g. `output "y" set 0 float[2,3]: max abs err 0.5, max rel err 0.25, mismatches 2/6 (33.3%),
// worst at 4 [1,1]: expected 2, got 2.5; would pass with rtol >= 0.25 or atol >= 0.5
// (used rtol 0.001, atol 1e-07)`.
std::string FormatComparison(const OutputComparison& output);
// One FormatComparison line per failing output.
std::vector<std::string> FailingComparisons(const CaseRecord& c);

// Declines as lines: "node conv0 (Conv) ran on ref; dnnl declined: no kernel for type double".
std::vector<std::string> FormatDeclines(const std::vector<PlacementRecord>& placements);

// Latency: `median 12.3 ms vs baseline 10.1 ms (+21.8%, p=0.001)`, or without a baseline
// `median 12.3 ms (no baseline)`; for a record that was not measured `not measured`.
std::string FormatLatencySummary(const LatencyRecord& record);
// "<model>[<ep>,<threads>t]", with the shapes after the thread count when there are any:
// "bert[ref,1t,batch=4,seq=128]".
std::string LatencyDisplayName(const LatencyRecord& record);
// The model and its shapes, "bert[batch=4,seq=128]"; the model alone when it has none.
std::string LatencyModelShapes(const LatencyRecord& record);
// Which side timed the records and on which clock, one line: "Timed by the runtime, inside its
// own process (wall clock): 2; by the harness, around each run (wall clock): 1". Empty when no
// record says.
std::string FormatLatencyTiming(const std::vector<LatencyRecord>& records);

}  // namespace onnxgate
