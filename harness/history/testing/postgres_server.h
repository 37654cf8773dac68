// A throwaway PostgreSQL server for tests: initdb into a folder, the server on a free port of
// 127.0.0.1 with password (SCRAM) login for the user "onnxgate", stopped and removed when done.
// Built from the PostgreSQL binaries in /usr/lib/postgresql/<version>/bin (the Debian layout).
// initdb refuses to run as root, so as root every server command runs as the `postgres` user
// (runuser), and the folder is handed to that user.
//
// The folder holds everything: data/ (the cluster), password, url (the URL printed by start),
// server.log (the server's log) and commands.log (what initdb and pg_ctl said). Any error names
// the folder and, where there is one, the log to read.
#pragma once

#include <memory>
#include <string>

#include "runtime/base/status.h"

namespace onnxgate {

// Starts a server whose files live in `dir` (created when missing; a cluster already there is
// started again), and returns its URL, postgresql://onnxgate:<password>@127.0.0.1:<port>/postgres.
// Unavailable, with the reason, when no server can start on this machine (no PostgreSQL
// binaries; root without a `postgres` user or runuser); any other error is the server's.
StatusOr<std::string> StartPostgresServer(const std::string& dir);

// Stops the server whose files live in `dir` (fast shutdown, waiting for it to end).
Status StopPostgresServer(const std::string& dir);

// Creates the database `name` on the server behind `url` and returns the URL that opens it.
StatusOr<std::string> CreatePostgresDatabase(const std::string& url, const std::string& name);

// A server in a fresh temporary folder; stopped and the folder removed on destruction, or by a
// watchdog process when this process is killed before that.
class PostgresTestServer {
 public:
  static StatusOr<std::unique_ptr<PostgresTestServer>> Start();
  ~PostgresTestServer();
  PostgresTestServer(const PostgresTestServer&) = delete;
  PostgresTestServer& operator=(const PostgresTestServer&) = delete;

  const std::string& url() const { return url_; }
  const std::string& dir() const { return dir_; }
  // Stops the server (its URL then refuses connections) and starts it again, on the same port.
  Status Stop() { return StopPostgresServer(dir_); }
  Status Restart();

 private:
  explicit PostgresTestServer(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
  std::string url_;
  int watchdog_ = -1;  // the pipe that keeps the watchdog waiting
};

}  // namespace onnxgate
