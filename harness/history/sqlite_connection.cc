// SQLite connections and their errors.
#include "harness/history/sqlite_connection.h"

#include <utility>

namespace onnxgate {
namespace {

std::string Seconds(int ms) {
  std::string s = std::to_string(ms / 1000);
  if (ms % 1000 != 0) s += "." + std::to_string(ms % 1000 / 100);
  return s + " s";
}

}  // namespace

StatusOr<std::unique_ptr<SqliteConnection>> SqliteConnection::Open(const std::string& path,
                                                                   bool create,
                                                                   int busy_timeout_ms) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  std::unique_ptr<SqliteConnection> connection(new SqliteConnection(path, db, busy_timeout_ms));
  if (db == nullptr) return Unavailable("history database " + path + ": out of memory opening it");
  if (rc != SQLITE_OK) return connection->Error(rc, "opening it");
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  // WAL: readers never wait for a writer, and writers on one machine take turns.
  ONNXGATE_RETURN_IF_ERROR(connection->Exec("PRAGMA journal_mode=WAL", "opening it"));
  return connection;
}

SqliteConnection::~SqliteConnection() { sqlite3_close_v2(db_); }

Status SqliteConnection::Exec(const std::string& sql, const char* doing) {
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? OkStatus() : Error(rc, doing);
}

StatusOr<SqliteStatement> SqliteConnection::Prepare(const std::string& sql, const char* doing) {
  sqlite3_stmt* statement = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr);
  SqliteStatement owned(statement, &sqlite3_finalize);
  if (rc != SQLITE_OK) return Error(rc, doing);
  return owned;
}

StatusOr<bool> SqliteConnection::Step(sqlite3_stmt* statement, const char* doing) {
  const int rc = sqlite3_step(statement);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(rc, doing);
}

StatusOr<std::optional<int64_t>> SqliteConnection::QueryInt(const std::string& sql,
                                                            const char* doing) {
  ONNXGATE_ASSIGN_OR_RETURN(SqliteStatement statement, Prepare(sql, doing));
  ONNXGATE_ASSIGN_OR_RETURN(bool row, Step(statement.get(), doing));
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(sqlite3_column_int64(statement.get(), 0));
}

Status SqliteConnection::Error(int code, const char* doing) const {
  const std::string where = "history database " + path_ + " (" + doing + ")";
  const std::string detail = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Unavailable(where + ": locked by another writer for longer than " +
                         Seconds(busy_timeout_ms_) + ": " + detail);
    case SQLITE_READONLY:
      return InvalidArgument(where + ": the file or its folder is read-only: " + detail);
    case SQLITE_CANTOPEN:
      return InvalidArgument(where +
                             ": cannot open the file (its folder missing, or the file "
                             "or folder read-only?): " +
                             detail);
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
      return DataLoss(where + ": not a SQLite database, or corrupted: " + detail);
    case SQLITE_FULL:
    case SQLITE_IOERR: return Unavailable(where + ": cannot write: " + detail);
    default: return Unavailable(where + ": " + detail);
  }
}

}  // namespace onnxgate
