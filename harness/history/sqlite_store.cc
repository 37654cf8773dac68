// The SQLite results store: schema on open, one transaction per Append, filtered reads.
#include "harness/history/sqlite_store.h"

#include <sys/stat.h>

#include <utility>

#include "harness/history/history_rows.h"
#include "harness/history/history_schema.h"
#include "harness/history/sqlite_connection.h"

namespace onnxgate {
namespace {

constexpr char kOpening[] = "reading its schema";
constexpr char kMigrating[] = "creating or migrating its schema";
constexpr char kAppending[] = "appending a run";
constexpr char kReading[] = "reading";

// Binds a record's values to a statement's parameters in order (history_rows.h). The values
// must outlive the statement's step.
class SqliteBinder {
 public:
  explicit SqliteBinder(sqlite3_stmt* statement) : statement_(statement) {}
  void Text(const std::string& v) {
    Keep(sqlite3_bind_text(statement_, next_++, v.data(), static_cast<int>(v.size()),
                           SQLITE_STATIC));
  }
  void Int(int64_t v) { Keep(sqlite3_bind_int64(statement_, next_++, v)); }
  void Real(double v) { Keep(sqlite3_bind_double(statement_, next_++, v)); }
  void NullableReal(const std::optional<double>& v) {
    if (v) return Real(*v);
    Keep(sqlite3_bind_null(statement_, next_++));
  }
  int rc() const { return rc_; }

 private:
  void Keep(int rc) {
    if (rc_ == SQLITE_OK) rc_ = rc;
  }
  sqlite3_stmt* statement_;
  int next_ = 1;
  int rc_ = SQLITE_OK;
};

// A result row's columns by index (history_rows.h).
struct SqliteRow {
  sqlite3_stmt* statement;
  std::string Text(int i) const {
    const unsigned char* text = sqlite3_column_text(statement, i);
    if (text == nullptr) return "";
    return std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement, i));
  }
  int64_t Int(int i) const { return sqlite3_column_int64(statement, i); }
  double Real(int i) const { return sqlite3_column_double(statement, i); }
  std::optional<double> NullableReal(int i) const {
    if (sqlite3_column_type(statement, i) == SQLITE_NULL) return std::nullopt;
    return Real(i);
  }
};

// Rolls back an open transaction unless it was committed.
class Transaction {
 public:
  explicit Transaction(SqliteConnection& db) : db_(db) {}
  ~Transaction() {
    if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Status BeginImmediate(const char* doing) {
    ONNXGATE_RETURN_IF_ERROR(db_.Exec("BEGIN IMMEDIATE", doing));
    open_ = true;
    return OkStatus();
  }
  Status Commit(const char* doing) {
    ONNXGATE_RETURN_IF_ERROR(db_.Exec("COMMIT", doing));
    open_ = false;
    return OkStatus();
  }

 private:
  SqliteConnection& db_;
  bool open_ = false;
};

class SqliteResultsStore : public ResultsStore {
 public:
  explicit SqliteResultsStore(std::unique_ptr<SqliteConnection> db) : db_(std::move(db)) {}

  std::string name() const override { return db_->path(); }
  Status EnsureSchema(bool create);
  StatusOr<int64_t> Append(const HistoryRun& run) override;
  StatusOr<std::vector<Stored<LatencyPoint>>> ReadLatency(const HistoryQuery& query) override {
    return Read<LatencyPoint>(kSelectLatencySql, query, &LatencyFromRow<SqliteRow>);
  }
  StatusOr<std::vector<Stored<CasePoint>>> ReadCases(const HistoryQuery& query) override {
    return Read<CasePoint>(kSelectCasesSql, query, &CaseFromRow<SqliteRow>);
  }

 private:
  StatusOr<std::optional<int64_t>> SchemaVersion();
  Status Migrate();
  StatusOr<int64_t> InsertRun(const HistoryContext& context);
  template <typename Point>
  Status InsertPoints(const char* sql, int64_t run_id, const std::vector<Point>& points);
  template <typename Point>
  StatusOr<std::vector<Stored<Point>>> Read(const char* sql, const HistoryQuery& query,
                                            Stored<Point> (*from_row)(const SqliteRow&));

  std::unique_ptr<SqliteConnection> db_;
};

// The version, or nullopt when the file has no onnxgate_schema table.
StatusOr<std::optional<int64_t>> SqliteResultsStore::SchemaVersion() {
  ONNXGATE_ASSIGN_OR_RETURN(
      std::optional<int64_t> tables,
      db_->QueryInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                    "name = 'onnxgate_schema'",
                    kOpening));
  if (!tables || *tables == 0) return std::optional<int64_t>();
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<int64_t> version,
                            db_->QueryInt(kSelectSchemaVersionSql, kOpening));
  if (!version) return DataLoss("history database " + name() + ": its schema version is missing");
  return version;
}

Status SqliteResultsStore::EnsureSchema(bool create) {
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<int64_t> version, SchemaVersion());
  if (version) {
    ONNXGATE_RETURN_IF_ERROR(CheckSchemaVersion("history database " + name(), *version));
    if (*version == kHistorySchemaVersion) return OkStatus();
    return Migrate();
  }
  ONNXGATE_ASSIGN_OR_RETURN(
      std::optional<int64_t> tables,
      db_->QueryInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'", kOpening));
  if (tables && *tables > 0) {
    return InvalidArgument("history database " + name() +
                           ": a SQLite database but not an onnxgate history (no onnxgate_schema "
                           "table)");
  }
  if (!create) return NotFound("history database " + name() + ": empty, it holds no history");
  return Migrate();
}

// Creates or migrates the schema in one transaction, after looking again under the write lock:
// another process may have done it meanwhile.
Status SqliteResultsStore::Migrate() {
  Transaction transaction(*db_);
  ONNXGATE_RETURN_IF_ERROR(transaction.BeginImmediate(kMigrating));
  ONNXGATE_ASSIGN_OR_RETURN(std::optional<int64_t> version, SchemaVersion());
  if (version) {
    ONNXGATE_RETURN_IF_ERROR(CheckSchemaVersion("history database " + name(), *version));
  }
  for (const std::string& sql : MigrationStatements(SqlDialect::kSqlite, version)) {
    ONNXGATE_RETURN_IF_ERROR(db_->Exec(sql, kMigrating));
  }
  return transaction.Commit(kMigrating);
}

StatusOr<int64_t> SqliteResultsStore::InsertRun(const HistoryContext& context) {
  ONNXGATE_ASSIGN_OR_RETURN(SqliteStatement statement,
                            db_->Prepare(SqliteParameters(kInsertRunSql), kAppending));
  SqliteBinder binder(statement.get());
  BindRun(binder, context);
  if (binder.rc() != SQLITE_OK) return db_->Error(binder.rc(), kAppending);
  ONNXGATE_ASSIGN_OR_RETURN(bool row, db_->Step(statement.get(), kAppending));
  if (!row) return Internal("history database " + name() + ": inserting a run returned no id");
  const int64_t id = sqlite3_column_int64(statement.get(), 0);
  ONNXGATE_ASSIGN_OR_RETURN(row, db_->Step(statement.get(), kAppending));
  return id;
}

Status ValidatePoint(const LatencyPoint& p, size_t i) { return ValidateLatencyPoint(p, i); }
Status ValidatePoint(const CasePoint& p, size_t i) { return ValidateCasePoint(p, i); }
void BindPoint(SqliteBinder& b, int64_t run_id, const LatencyPoint& p) {
  BindLatency(b, run_id, p);
}
void BindPoint(SqliteBinder& b, int64_t run_id, const CasePoint& p) { BindCase(b, run_id, p); }

template <typename Point>
Status SqliteResultsStore::InsertPoints(const char* sql, int64_t run_id,
                                        const std::vector<Point>& points) {
  if (points.empty()) return OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(SqliteStatement statement,
                            db_->Prepare(SqliteParameters(sql), kAppending));
  for (size_t i = 0; i < points.size(); ++i) {
    Status valid = ValidatePoint(points[i], i);
    if (!valid.ok())
      return valid.WithContext("history database " + name() + " (" + kAppending + ")");
    sqlite3_reset(statement.get());
    SqliteBinder binder(statement.get());
    BindPoint(binder, run_id, points[i]);
    if (binder.rc() != SQLITE_OK) return db_->Error(binder.rc(), kAppending);
    ONNXGATE_ASSIGN_OR_RETURN(bool row, db_->Step(statement.get(), kAppending));
    (void)row;
  }
  return OkStatus();
}

StatusOr<int64_t> SqliteResultsStore::Append(const HistoryRun& run) {
  Transaction transaction(*db_);
  ONNXGATE_RETURN_IF_ERROR(transaction.BeginImmediate(kAppending));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t run_id, InsertRun(run.context));
  ONNXGATE_RETURN_IF_ERROR(InsertPoints(kInsertLatencySql, run_id, run.latency));
  ONNXGATE_RETURN_IF_ERROR(InsertPoints(kInsertCaseSql, run_id, run.cases));
  ONNXGATE_RETURN_IF_ERROR(transaction.Commit(kAppending));
  return run_id;
}

const std::string& SeriesName(const LatencyPoint& p) { return p.key.model; }
const std::string& SeriesName(const CasePoint& p) { return p.key.case_name; }

template <typename Point>
StatusOr<std::vector<Stored<Point>>> SqliteResultsStore::Read(
    const char* sql, const HistoryQuery& query, Stored<Point> (*from_row)(const SqliteRow&)) {
  ONNXGATE_ASSIGN_OR_RETURN(SqliteStatement statement,
                            db_->Prepare(SqliteParameters(sql), kReading));
  const std::vector<std::string> parameters = QueryParameters(query);
  SqliteBinder binder(statement.get());
  for (const std::string& p : parameters) binder.Text(p);
  if (binder.rc() != SQLITE_OK) return db_->Error(binder.rc(), kReading);
  std::vector<Stored<Point>> points;
  const SqliteRow row{statement.get()};
  while (true) {
    ONNXGATE_ASSIGN_OR_RETURN(bool more, db_->Step(statement.get(), kReading));
    if (!more) break;
    Stored<Point> point = from_row(row);
    if (MatchesModelGlob(query, SeriesName(point.point))) points.push_back(std::move(point));
  }
  return points;
}

}  // namespace

StatusOr<std::unique_ptr<ResultsStore>> OpenSqliteResultsStore(const std::string& path, bool create,
                                                               const SqliteStoreOptions& options) {
  struct stat info {};
  const bool exists = stat(path.c_str(), &info) == 0;
  if (!exists && !create) {
    return NotFound("history database " + path + ": no such file (it is created only when asked)");
  }
  if (exists && S_ISDIR(info.st_mode)) {
    return InvalidArgument("history database " + path + ": a folder, not a file");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<SqliteConnection> db,
                            SqliteConnection::Open(path, create, options.busy_timeout_ms));
  auto store = std::make_unique<SqliteResultsStore>(std::move(db));
  ONNXGATE_RETURN_IF_ERROR(store->EnsureSchema(create));
  return std::unique_ptr<ResultsStore>(std::move(store));
}

}  // namespace onnxgate
