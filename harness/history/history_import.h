// `onnxgate history import`: existing latency baselines (harness/latency/baseline.h) and JSON
// reports of bench, gate or run (docs/report-json-schema.md) as history entries, one per file,
// appended to a store in the order the files are given.
//
// Contract:
// - A baseline file is one bench run: its fingerprint's id is the machine, its runtime, EP,
//   clock and optimization level key every entry with the entry's model, threads and shapes, its
//   `updated` time is the run's time.
// - A JSON report is the run it records (HistoryFromRun): the machine is the fingerprint id of
//   its host (and build type, when the report's Google Benchmark context names it, else this
//   binary's), the optimization level and clock those its command line gave (else 0 and wall).
// - Every file is read and checked before the first append, so a bad file imports nothing; an
//   error names the file, or the database.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/history/history_from_run.h"
#include "harness/history/history_records.h"
#include "harness/history/results_store.h"
#include "harness/latency/baseline.h"
#include "reports/records.h"
#include "runtime/base/status.h"

namespace onnxgate {

// Commit and branch (already resolved) of the imported runs.
struct HistoryImportOptions {
  std::string commit = "unknown";
  std::string branch = "unknown";
};

HistoryRun HistoryFromBaseline(const BaselineFile& file, const HistoryImportOptions& options);

// `run` as read from a JSON report; `build_type` of the machine that wrote it, empty when it does
// not say.
HistoryRun HistoryFromReport(const RunRecord& run, const std::string& build_type,
                             const HistoryImportOptions& options);

// A baseline file or a JSON report at `path`, told apart by its "format" or "schema" field.
StatusOr<HistoryRun> ReadHistoryFile(const std::string& path, const HistoryImportOptions& options);

// Reads every file, then appends them in order; returns the run ids.
StatusOr<std::vector<int64_t>> ImportHistoryFiles(ResultsStore& store,
                                                  const std::vector<std::string>& paths,
                                                  const HistoryImportOptions& options);

}  // namespace onnxgate
