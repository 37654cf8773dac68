// The PostgreSQL results store: schema on open, one transaction per Append, filtered reads.
#include "harness/history/postgres_store.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "harness/history/history_rows.h"
#include "harness/history/history_schema.h"
#include "harness/history/postgres_connection.h"

namespace onnxgate {
namespace {

constexpr char kOpening[] = "reading its schema";
constexpr char kMigrating[] = "creating or migrating its schema";
constexpr char kAppending[] = "appending a run";
constexpr char kReading[] = "reading";
// Serializes schema creation between processes that open one database at once. Taken before
// the transaction begins, so that the transaction sees the catalog as the previous holder left it.
constexpr char kSchemaLockSql[] = "SELECT pg_advisory_lock(7010411210)";
constexpr char kSchemaUnlockSql[] = "SELECT pg_advisory_unlock(7010411210)";

// A record's values as text parameters, in order (history_rows.h).
struct PostgresBinder {
  PostgresParameters values;
  void Text(const std::string& v) { values.emplace_back(v); }
  void Int(int64_t v) { values.emplace_back(std::to_string(v)); }
  void Real(double v) {
    if (std::isinf(v)) {
      values.emplace_back(v > 0 ? "Infinity" : "-Infinity");
      return;
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", v);
    values.emplace_back(text);
  }
  void NullableReal(const std::optional<double>& v) {
    if (v) {
      Real(*v);
    } else {
      values.emplace_back(std::nullopt);
    }
  }
};

// A result row's columns by index (history_rows.h).
struct PostgresRow {
  const PGresult* result;
  int row;
  std::string Text(int i) const {
    return std::string(PQgetvalue(result, row, i), PQgetlength(result, row, i));
  }
  int64_t Int(int i) const { return std::strtoll(PQgetvalue(result, row, i), nullptr, 10); }
  double Real(int i) const { return std::strtod(PQgetvalue(result, row, i), nullptr); }
  std::optional<double> NullableReal(int i) const {
    if (PQgetisnull(result, row, i)) return std::nullopt;
    return Real(i);
  }
};

// Rolls back an open transaction unless it was committed.
class Transaction {
 public:
  explicit Transaction(PostgresConnection& db) : db_(db) {}
  ~Transaction() {
    if (open_) (void)db_.Exec("ROLLBACK", {}, "rolling back");
  }
  Status Begin(const char* doing) {
    ONNXGATE_RETURN_IF_ERROR(db_.Exec("BEGIN", {}, doing).status());
    open_ = true;
    return OkStatus();
  }
  Status Commit(const char* doing) {
    ONNXGATE_RETURN_IF_ERROR(db_.Exec("COMMIT", {}, doing).status());
    open_ = false;
    return OkStatus();
  }

 private:
  PostgresConnection& db_;
  bool open_ = false;
};

Status ValidatePoint(const LatencyPoint& p, size_t i) { return ValidateLatencyPoint(p, i); }
Status ValidatePoint(const CasePoint& p, size_t i) { return ValidateCasePoint(p, i); }
void BindPoint(PostgresBinder& b, int64_t run_id, const LatencyPoint& p) {
  BindLatency(b, run_id, p);
}
void BindPoint(PostgresBinder& b, int64_t run_id, const CasePoint& p) { BindCase(b, run_id, p); }
const std::string& SeriesName(const LatencyPoint& p) { return p.key.model; }
const std::string& SeriesName(const CasePoint& p) { return p.key.case_name; }

class PostgresResultsStore : public ResultsStore {
 public:
  explicit PostgresResultsStore(std::unique_ptr<PostgresConnection> db) : db_(std::move(db)) {}

  std::string name() const override { return db_->name(); }
  Status EnsureSchema(bool create);
  Status PrepareInserts();
  StatusOr<int64_t> Append(const HistoryRun& run) override;
  StatusOr<std::vector<Stored<LatencyPoint>>> ReadLatency(const HistoryQuery& query) override {
    return Read<LatencyPoint>(kSelectLatencySql, query, &LatencyFromRow<PostgresRow>);
  }
  StatusOr<std::vector<Stored<CasePoint>>> ReadCases(const HistoryQuery& query) override {
    return Read<CasePoint>(kSelectCasesSql, query, &CaseFromRow<PostgresRow>);
  }

 private:
  StatusOr<std::optional<int64_t>> SchemaVersion(const char* doing);
  Status Migrate(bool create);
  Status MigrateLocked(bool create);
  StatusOr<int64_t> InsertRun(const HistoryContext& context);
  template <typename Point>
  Status InsertPoints(const char* statement, int64_t run_id, const std::vector<Point>& points);
  template <typename Point>
  StatusOr<std::vector<Stored<Point>>> Read(const char* sql, const HistoryQuery& query,
                                            Stored<Point> (*from_row)(const PostgresRow&));

  std::unique_ptr<PostgresConnection> db_;
};

// The version, or nullopt when the database has no onnxgate_schema table.
StatusOr<std::optional<int64_t>> PostgresResultsStore::SchemaVersion(const char* doing) {
  ONNXGATE_ASSIGN_OR_RETURN(
      PostgresResult exists,
      db_->Exec("SELECT to_regclass('onnxgate_schema') IS NOT NULL", {}, doing));
  if (std::string(PQgetvalue(exists.get(), 0, 0)) != "t") return std::optional<int64_t>();
  ONNXGATE_ASSIGN_OR_RETURN(PostgresResult version, db_->Exec(kSelectSchemaVersionSql, {}, doing));
  if (PQntuples(version.get()) == 0) {
    return DataLoss("history database " + name() + ": its schema version is missing");
  }
  return std::optional<int64_t>(PostgresRow{version.get(), 0}.Int(0));
}

Status PostgresResultsStore::EnsureSchema(bool create) {
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<int64_t> version, SchemaVersion(kOpening));
  if (version) {
    ONNXGATE_RETURN_IF_ERROR(CheckSchemaVersion("history database " + name(), *version));
    if (*version == kHistorySchemaVersion) return OkStatus();
  }
  return Migrate(create);
}

// Creates or migrates the schema under a lock that other openers wait for.
Status PostgresResultsStore::Migrate(bool create) {
  ONNXGATE_RETURN_IF_ERROR(db_->Exec(kSchemaLockSql, {}, kMigrating).status());
  const Status migrated = MigrateLocked(create);
  (void)db_->Exec(kSchemaUnlockSql, {}, kMigrating);
  return migrated;
}

// One transaction, after looking again: another process may have done it meanwhile.
Status PostgresResultsStore::MigrateLocked(bool create) {
  Transaction transaction(*db_);
  ONNXGATE_RETURN_IF_ERROR(transaction.Begin(kMigrating));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<int64_t> version, SchemaVersion(kMigrating));
  if (version) {
    ONNXGATE_RETURN_IF_ERROR(CheckSchemaVersion("history database " + name(), *version));
  } else if (!create) {
    return NotFound("history database " + name() + ": it holds no history (no onnxgate_schema)");
  }
  for (const std::string& sql : MigrationStatements(SqlDialect::kPostgres, version)) {
    ONNXGATE_RETURN_IF_ERROR(db_->Exec(sql, {}, kMigrating).status());
  }
  return transaction.Commit(kMigrating);
}

Status PostgresResultsStore::PrepareInserts() {
  ONNXGATE_RETURN_IF_ERROR(db_->Prepare("onnxgate_insert_latency", kInsertLatencySql, kOpening));
  return db_->Prepare("onnxgate_insert_case", kInsertCaseSql, kOpening);
}

StatusOr<int64_t> PostgresResultsStore::InsertRun(const HistoryContext& context) {
  PostgresBinder binder;
  BindRun(binder, context);
  ONNXGATE_ASSIGN_OR_RETURN(PostgresResult result,
                            db_->Exec(kInsertRunSql, binder.values, kAppending));
  if (PQntuples(result.get()) != 1) {
    return Internal("history database " + name() + ": inserting a run returned no id");
  }
  return PostgresRow{result.get(), 0}.Int(0);
}

template <typename Point>
Status PostgresResultsStore::InsertPoints(const char* statement, int64_t run_id,
                                          const std::vector<Point>& points) {
  for (size_t i = 0; i < points.size(); ++i) {
    Status valid = ValidatePoint(points[i], i);
    if (!valid.ok()) {
      return valid.WithContext("history database " + name() + " (" + kAppending + ")");
    }
    PostgresBinder binder;
    BindPoint(binder, run_id, points[i]);
    ONNXGATE_RETURN_IF_ERROR(db_->ExecPrepared(statement, binder.values, kAppending).status());
  }
  return OkStatus();
}

StatusOr<int64_t> PostgresResultsStore::Append(const HistoryRun& run) {
  Transaction transaction(*db_);
  ONNXGATE_RETURN_IF_ERROR(transaction.Begin(kAppending));
  // Appenders take turns, so run ids are in commit order; readers are not held up.
  ONNXGATE_RETURN_IF_ERROR(db_->Exec("LOCK TABLE runs IN EXCLUSIVE MODE", {}, kAppending).status());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t run_id, InsertRun(run.context));
  ONNXGATE_RETURN_IF_ERROR(InsertPoints("onnxgate_insert_latency", run_id, run.latency));
  ONNXGATE_RETURN_IF_ERROR(InsertPoints("onnxgate_insert_case", run_id, run.cases));
  ONNXGATE_RETURN_IF_ERROR(transaction.Commit(kAppending));
  return run_id;
}

template <typename Point>
StatusOr<std::vector<Stored<Point>>> PostgresResultsStore::Read(
    const char* sql, const HistoryQuery& query, Stored<Point> (*from_row)(const PostgresRow&)) {
  PostgresParameters parameters;
  for (std::string& p : QueryParameters(query)) parameters.emplace_back(std::move(p));
  ONNXGATE_ASSIGN_OR_RETURN(PostgresResult result, db_->Exec(sql, parameters, kReading));
  std::vector<Stored<Point>> points;
  const int rows = PQntuples(result.get());
  for (int row = 0; row < rows; ++row) {
    Stored<Point> point = from_row(PostgresRow{result.get(), row});
    if (MatchesModelGlob(query, SeriesName(point.point))) points.push_back(std::move(point));
  }
  return points;
}

}  // namespace

StatusOr<std::unique_ptr<ResultsStore>> OpenPostgresResultsStore(
    const std::string& url, bool create, const PostgresStoreOptions& options) {
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<PostgresConnection> db,
                            PostgresConnection::Connect(url, options.connect_timeout_s));
  ONNXGATE_RETURN_IF_ERROR(db->Exec("SELECT set_config('lock_timeout', $1, false)",
                                    {std::to_string(options.lock_timeout_ms)}, kOpening)
                               .status());
  auto store = std::make_unique<PostgresResultsStore>(std::move(db));
  ONNXGATE_RETURN_IF_ERROR(store->EnsureSchema(create));
  ONNXGATE_RETURN_IF_ERROR(store->PrepareInserts());
  return std::unique_ptr<ResultsStore>(std::move(store));
}

}  // namespace onnxgate
