// The publish stage of `run` and `gate`: the reports the options ask for (one ReportWriter per
// format, reports/report_writer.h), the console summary (counts per verdict, the conformance
// matrix in a few lines, one reproducer per unexpected case) and the exit code.
#pragma once

#include <cstddef>
#include <vector>

#include "harness/run_command.h"
#include "harness/run_plan.h"
#include "reports/records.h"
#include "reports/report_writer.h"

namespace onnxgate {

// A case's progress line: "[3/120] FAIL        suite/case [ep] (0.12s): message", every name
// and message escaped for the terminal.
void PrintCaseLine(const CaseRecord& record, size_t done, size_t total);

// The reports of a run, in the order they are written: JUnit XML, JSON, HTML, Markdown.
std::vector<ReportTarget> RunReportTargets(const RunCommandOptions& options);

// Writes each of those reports to its path; false when one could not be written (it is named on
// stderr, and the others are still written).
bool WriteReports(const RunCommandOptions& options, const RunRecord& run);

// Writes the reports (a failed one is reported on stderr and the others still written), prints
// the summary and returns the exit code: 0 all expectations met, 1 unexpected results, 2 a
// report not written, an interrupted run, or records that do not add up to the selection.
int PublishRun(const RunPlan& plan, const RunRecord& run);

}  // namespace onnxgate
