// The results history's schema, shared by the SQLite and PostgreSQL stores: the tables, their
// indexes, the migration from each older version to kHistorySchemaVersion, and the statements
// that write and read a run. Values are always parameters ($1, $2, ...; SqliteParameters turns
// them into SQLite's ?1, ?2, ...), never text built into the SQL.
//
// Version 1: onnxgate_schema(version) with one row; runs (id, kind, "commit", branch,
// tool_version, runtime, runtime_version, machine, recorded); latency (run_id, model, runtime,
// ep, threads, shapes, optimization_level, clock, model_sha256, samples, median_ms, min_ms,
// p90_ms, mean_ms, cv); cases (run_id, suite, case_name, runtime, ep, verdict, margin NULL-able).
// A new version adds a step to MigrationSteps (history_schema.cc) and raises
// kHistorySchemaVersion; a database at version N runs the steps after N, in one transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

enum class SqlDialect { kSqlite, kPostgres };

// The statements that bring a database at `found_version` to kHistorySchemaVersion, the last of
// which records the new version: nullopt (no onnxgate_schema table yet) creates the version
// table at 0 first; 0 -> 1 creates the tables; N-1 -> N is version N's step. Empty when the
// database is at kHistorySchemaVersion.
std::vector<std::string> MigrationStatements(SqlDialect dialect,
                                             std::optional<int64_t> found_version);

// The statement that reads the version: one row, one integer column.
inline constexpr char kSelectSchemaVersionSql[] = "SELECT version FROM onnxgate_schema";

// OK for a version this build can open (migrating it when older); otherwise the error naming
// the database, the version it has and the one this build knows.
Status CheckSchemaVersion(const std::string& database, int64_t found);

// Appending: a run ($1..$8: kind, commit, branch, tool_version, runtime, runtime_version,
// machine, recorded) returning its id, a latency point ($1 run_id, $2..$15 in the column order
// above) and a case ($1 run_id, $2..$7).
extern const char kInsertRunSql[];
extern const char kInsertLatencySql[];
extern const char kInsertCaseSql[];

// Reading: $1..$5 are the query's kind, branch, machine, runtime and ep ('' matches all). The
// columns are the run's (id, then the eight context fields) followed by the point's; rows come
// in run order, then in key order within a run.
extern const char kSelectLatencySql[];
extern const char kSelectCasesSql[];

// "$1 ... $12" -> "?1 ... ?12".
std::string SqliteParameters(const std::string& sql);

}  // namespace onnxgate
