// A libpq connection for the history store: connects with a bounded connect timeout, runs
// statements with their values as parameters ($1, $2, ...; text, NULL for nullopt), and turns
// libpq's failures into Status errors that name the database by its URL without the password,
// with libpq's own message.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

using PostgresResult = std::unique_ptr<PGresult, void (*)(PGresult*)>;
using PostgresParameters = std::vector<std::optional<std::string>>;

class PostgresConnection {
 public:
  // Connects to `url`; a server that does not answer within `connect_timeout_s` (unless the URL
  // sets its own connect_timeout) is an error, as are a refused login and a refused connection.
  static StatusOr<std::unique_ptr<PostgresConnection>> Connect(const std::string& url,
                                                               int connect_timeout_s);
  ~PostgresConnection();
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  // The URL without its password.
  const std::string& name() const { return name_; }

  // Runs `sql` with `parameters`; the result of a command or a query, or the error.
  StatusOr<PostgresResult> Exec(const std::string& sql, const PostgresParameters& parameters,
                                const char* doing);
  // Prepares `sql` as the named statement, and runs it.
  Status Prepare(const char* statement, const std::string& sql, const char* doing);
  StatusOr<PostgresResult> ExecPrepared(const char* statement, const PostgresParameters& parameters,
                                        const char* doing);

 private:
  PostgresConnection(std::string name, PGconn* connection)
      : name_(std::move(name)), connection_(connection) {}
  StatusOr<PostgresResult> Check(PGresult* result, const char* doing);

  std::string name_;
  PGconn* connection_;
};

}  // namespace onnxgate
