// The results history: a store that runs are appended to and series are read from. A SQLite file
// by default (embedded, one file, safe for concurrent writers on one machine), or a PostgreSQL
// database given as a postgresql:// URL for CI runners that share one history. Both hold the same
// versioned schema, migrated forward when an older one is opened; a newer one is refused.
//
// Contract:
// - Append writes one run in one transaction: all of it or, on any error, none of it.
// - Every error names the database (the file path, or the URL without its password) and what is
//   wrong: locked (after a bounded wait), read-only, not a history database or corrupted, of a
//   newer schema version, unreachable or refusing the login.
// - Reads return points in run order (run_id ascending).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "harness/history/history_records.h"
#include "runtime/base/status.h"

namespace onnxgate {

inline constexpr int kHistorySchemaVersion = 1;

// Which points a read returns; an empty field matches everything.
struct HistoryQuery {
  std::string kind;  // "bench" or "gate"
  std::string branch;
  std::string machine;
  std::string model_glob;  // latency: on the model name; cases: on the case name
  std::string runtime;
  std::string ep;
};

class ResultsStore {
 public:
  virtual ~ResultsStore() = default;
  // The database as errors and reports name it: the file path, or the URL without password.
  virtual std::string name() const = 0;
  // The run's id.
  virtual StatusOr<int64_t> Append(const HistoryRun& run) = 0;
  virtual StatusOr<std::vector<Stored<LatencyPoint>>> ReadLatency(const HistoryQuery& query) = 0;
  virtual StatusOr<std::vector<Stored<CasePoint>>> ReadCases(const HistoryQuery& query) = 0;
};

// A postgresql:// or postgres:// URL opens PostgreSQL, anything else is a SQLite file path.
// `create`: a missing file (or an empty database) gets the schema; otherwise a missing file is
// NotFound. An older schema is migrated; a newer one is FailedPrecondition naming both versions.
// (StatusCode has no FailedPrecondition: the stores return kUnimplemented for it, a valid database
// this build cannot handle.)
StatusOr<std::unique_ptr<ResultsStore>> OpenResultsStore(const std::string& location, bool create);

}  // namespace onnxgate
