// The history's tables and migrations, and the statements that append and read a run.
#include "harness/history/history_schema.h"

#include <cctype>

#include "harness/history/results_store.h"

namespace onnxgate {
namespace {

struct Types {
  const char* id;    // the runs table's own key, numbered in append order
  const char* real;  // a double
};

Types TypesOf(SqlDialect dialect) {
  if (dialect == SqlDialect::kSqlite) return {"INTEGER PRIMARY KEY AUTOINCREMENT", "REAL"};
  return {"BIGSERIAL PRIMARY KEY", "DOUBLE PRECISION"};
}

// Version 0 -> 1: the tables and the indexes the reads use.
std::vector<std::string> CreateVersion1(SqlDialect dialect) {
  const Types t = TypesOf(dialect);
  const std::string real = t.real;
  return {
      std::string("CREATE TABLE runs (id ") + t.id +
          ", kind TEXT NOT NULL, \"commit\" TEXT NOT NULL, branch TEXT NOT NULL,"
          " tool_version TEXT NOT NULL, runtime TEXT NOT NULL, runtime_version TEXT NOT NULL,"
          " machine TEXT NOT NULL, recorded TEXT NOT NULL)",
      "CREATE TABLE latency (run_id BIGINT NOT NULL REFERENCES runs (id), model TEXT NOT NULL,"
      " runtime TEXT NOT NULL, ep TEXT NOT NULL, threads BIGINT NOT NULL, shapes TEXT NOT NULL,"
      " optimization_level BIGINT NOT NULL, clock TEXT NOT NULL, model_sha256 TEXT NOT NULL,"
      " samples BIGINT NOT NULL, median_ms " +
          real + " NOT NULL, min_ms " + real + " NOT NULL, p90_ms " + real + " NOT NULL, mean_ms " +
          real + " NOT NULL, cv " + real + " NOT NULL)",
      "CREATE TABLE cases (run_id BIGINT NOT NULL REFERENCES runs (id), suite TEXT NOT NULL,"
      " case_name TEXT NOT NULL, runtime TEXT NOT NULL, ep TEXT NOT NULL,"
      " verdict TEXT NOT NULL, margin " +
          real + ")",
      "CREATE INDEX runs_by_filter ON runs (kind, branch, machine)",
      // In the reads' order: a run's points come without a sort.
      "CREATE INDEX latency_by_run ON latency (run_id, model, runtime, ep, threads, shapes,"
      " optimization_level, clock)",
      "CREATE INDEX latency_by_series ON latency (model, runtime, ep)",
      "CREATE INDEX cases_by_run ON cases (run_id, suite, case_name, runtime, ep)",
      "CREATE INDEX cases_by_series ON cases (case_name, runtime, ep)",
  };
}

struct MigrationStep {
  int64_t to_version;
  std::vector<std::string> (*statements)(SqlDialect);
};

// One entry per version, in order; version N's step migrates N-1 to N.
constexpr MigrationStep kMigrationSteps[] = {
    {1, &CreateVersion1},
};
static_assert(sizeof(kMigrationSteps) / sizeof(kMigrationSteps[0]) == kHistorySchemaVersion,
              "every schema version has its migration step");

}  // namespace

std::vector<std::string> MigrationStatements(SqlDialect dialect,
                                             std::optional<int64_t> found_version) {
  std::vector<std::string> statements;
  if (!found_version) {
    statements = {"CREATE TABLE onnxgate_schema (version BIGINT NOT NULL)",
                  "INSERT INTO onnxgate_schema (version) VALUES (0)"};
  }
  for (const MigrationStep& step : kMigrationSteps) {
    if (step.to_version <= found_version.value_or(0)) continue;
    for (std::string& s : step.statements(dialect)) statements.push_back(std::move(s));
  }
  if (found_version.value_or(0) < kHistorySchemaVersion) {
    statements.push_back("UPDATE onnxgate_schema SET version = " +
                         std::to_string(kHistorySchemaVersion));
  }
  return statements;
}

Status CheckSchemaVersion(const std::string& database, int64_t found) {
  if (found > kHistorySchemaVersion) {
    return Unimplemented(database + " has history schema version " + std::to_string(found) +
                         ", newer than version " + std::to_string(kHistorySchemaVersion) +
                         " that this onnxgate knows: use a newer onnxgate");
  }
  if (found < 0) {
    return DataLoss(database + " has an invalid history schema version " + std::to_string(found));
  }
  return OkStatus();
}

const char kInsertRunSql[] =
    "INSERT INTO runs (kind, \"commit\", branch, tool_version, runtime, runtime_version, machine,"
    " recorded) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id";
const char kInsertLatencySql[] =
    "INSERT INTO latency (run_id, model, runtime, ep, threads, shapes, optimization_level, clock,"
    " model_sha256, samples, median_ms, min_ms, p90_ms, mean_ms, cv)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)";
const char kInsertCaseSql[] =
    "INSERT INTO cases (run_id, suite, case_name, runtime, ep, verdict, margin)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7)";

#define ONNXGATE_HISTORY_RUN_COLUMNS                                                               \
  "r.id, r.kind, r.\"commit\", r.branch, r.tool_version, r.runtime, r.runtime_version, r.machine," \
  " r.recorded"
#define ONNXGATE_HISTORY_RUN_FILTER                                  \
  " WHERE ($1 = '' OR r.kind = $1) AND ($2 = '' OR r.branch = $2)"   \
  " AND ($3 = '' OR r.machine = $3) AND ($4 = '' OR p.runtime = $4)" \
  " AND ($5 = '' OR p.ep = $5)"

const char kSelectLatencySql[] =
    "SELECT " ONNXGATE_HISTORY_RUN_COLUMNS
    ", p.model, p.runtime, p.ep, p.threads, p.shapes, p.optimization_level, p.clock,"
    " p.model_sha256, p.samples, p.median_ms, p.min_ms, p.p90_ms, p.mean_ms, p.cv"
    " FROM latency p JOIN runs r ON r.id = p.run_id" ONNXGATE_HISTORY_RUN_FILTER
    " ORDER BY r.id, p.model, p.runtime, p.ep, p.threads, p.shapes, p.optimization_level,"
    " p.clock";
const char kSelectCasesSql[] =
    "SELECT " ONNXGATE_HISTORY_RUN_COLUMNS
    ", p.suite, p.case_name, p.runtime, p.ep, p.verdict, p.margin"
    " FROM cases p JOIN runs r ON r.id = p.run_id" ONNXGATE_HISTORY_RUN_FILTER
    " ORDER BY r.id, p.suite, p.case_name, p.runtime, p.ep";

#undef ONNXGATE_HISTORY_RUN_COLUMNS
#undef ONNXGATE_HISTORY_RUN_FILTER

std::string SqliteParameters(const std::string& sql) {
  std::string out = sql;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '$' && std::isdigit(static_cast<unsigned char>(out[i + 1]))) out[i] = '?';
  }
  return out;
}

}  // namespace onnxgate
