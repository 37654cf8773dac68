// A SQLite connection for the history store: owns the handle and its prepared statements, runs
// statements, and turns SQLite's result codes into Status errors that name the database file and
// say what is wrong (locked, read-only, not a database or corrupted, cannot be opened).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

// A prepared statement, finalized when it goes.
using SqliteStatement = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)>;

class SqliteConnection {
 public:
  // Opens (or, with `create`, creates) `path` read-write (SQLite falls back to read-only when
  // the file is write-protected; writes then fail naming it), with WAL journaling and a busy
  // timeout: a writer waits up to `busy_timeout_ms` for another to finish.
  static StatusOr<std::unique_ptr<SqliteConnection>> Open(const std::string& path, bool create,
                                                          int busy_timeout_ms);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Runs a statement without parameters or results.
  Status Exec(const std::string& sql, const char* doing);
  StatusOr<SqliteStatement> Prepare(const std::string& sql, const char* doing);
  // Steps a statement: true at a row, false when done.
  StatusOr<bool> Step(sqlite3_stmt* statement, const char* doing);
  // The first column of the first row of `sql`, an integer; nullopt when there is no row.
  StatusOr<std::optional<int64_t>> QueryInt(const std::string& sql, const char* doing);

  // The error for result code `code` while `doing` (e.g. "appending a run").
  Status Error(int code, const char* doing) const;

 private:
  SqliteConnection(std::string path, sqlite3* db, int busy_timeout_ms)
      : path_(std::move(path)), db_(db), busy_timeout_ms_(busy_timeout_ms) {}

  std::string path_;
  sqlite3* db_;
  int busy_timeout_ms_;
};

}  // namespace onnxgate
