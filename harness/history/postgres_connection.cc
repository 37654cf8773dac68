// libpq connections and their errors.
#include "harness/history/postgres_connection.h"

#include <utility>

#include "harness/history/postgres_url.h"

namespace onnxgate {
namespace {

// libpq's message on one line: its lines joined with "; ", without the trailing newline.
std::string OneLine(const char* message) {
  std::string out;
  bool line_start = false;
  for (const char* c = message != nullptr ? message : ""; *c != '\0'; ++c) {
    if (*c == '\n') {
      line_start = true;
      continue;
    }
    if (line_start && (*c == ' ' || *c == '\t')) continue;
    if (line_start && !out.empty()) out += "; ";
    line_start = false;
    out += *c;
  }
  return out;
}

void IgnoreNotice(void*, const char*) {}

// Pointers into `parameters` for libpq; nullptr is SQL NULL.
std::vector<const char*> Values(const PostgresParameters& parameters) {
  std::vector<const char*> values;
  values.reserve(parameters.size());
  for (const auto& p : parameters) values.push_back(p ? p->c_str() : nullptr);
  return values;
}

}  // namespace

StatusOr<std::unique_ptr<PostgresConnection>> PostgresConnection::Connect(const std::string& url,
                                                                          int connect_timeout_s) {
  const std::string timeout = std::to_string(connect_timeout_s);
  // Later entries win: the URL's own connect_timeout, if any, overrides this default.
  const char* keywords[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {timeout.c_str(), url.c_str(), nullptr};
  PGconn* connection = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  std::unique_ptr<PostgresConnection> owned(
      new PostgresConnection(RedactPostgresUrl(url), connection));
  if (connection == nullptr) {
    return Unavailable("history database " + owned->name_ + ": out of memory connecting");
  }
  if (PQstatus(connection) != CONNECTION_OK) {
    return Unavailable("history database " + owned->name_ +
                       ": cannot connect: " + OneLine(PQerrorMessage(connection)));
  }
  PQsetNoticeProcessor(connection, &IgnoreNotice, nullptr);
  return owned;
}

PostgresConnection::~PostgresConnection() {
  if (connection_ != nullptr) PQfinish(connection_);
}

StatusOr<PostgresResult> PostgresConnection::Check(PGresult* raw, const char* doing) {
  PostgresResult result(raw, &PQclear);
  const ExecStatusType status = raw != nullptr ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  const std::string where = "history database " + name_ + " (" + doing + ")";
  if (PQstatus(connection_) == CONNECTION_BAD) {
    return Unavailable(where + ": lost the connection: " + OneLine(PQerrorMessage(connection_)));
  }
  const std::string message =
      OneLine(raw != nullptr ? PQresultErrorMessage(raw) : PQerrorMessage(connection_));
  const char* state = raw != nullptr ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  if (sqlstate == "55P03") {  // lock_not_available: lock_timeout passed
    return Unavailable(where +
                       ": locked by another writer for longer than the lock timeout: " + message);
  }
  if (sqlstate == "25006" || sqlstate == "42501") {  // read-only transaction, no privilege
    return InvalidArgument(where + ": not writable: " + message);
  }
  if (sqlstate.rfind("22", 0) == 0 || sqlstate.rfind("23", 0) == 0) {  // data, constraint
    return InvalidArgument(where + ": " + message);
  }
  return Unavailable(where + ": " + message);
}

StatusOr<PostgresResult> PostgresConnection::Exec(const std::string& sql,
                                                  const PostgresParameters& parameters,
                                                  const char* doing) {
  const std::vector<const char*> values = Values(parameters);
  return Check(PQexecParams(connection_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                            values.data(), nullptr, nullptr, 0),
               doing);
}

Status PostgresConnection::Prepare(const char* statement, const std::string& sql,
                                   const char* doing) {
  StatusOr<PostgresResult> result =
      Check(PQprepare(connection_, statement, sql.c_str(), 0, nullptr), doing);
  return result.status();
}

StatusOr<PostgresResult> PostgresConnection::ExecPrepared(const char* statement,
                                                          const PostgresParameters& parameters,
                                                          const char* doing) {
  const std::vector<const char*> values = Values(parameters);
  return Check(PQexecPrepared(connection_, statement, static_cast<int>(values.size()),
                              values.data(), nullptr, nullptr, 0),
               doing);
}

}  // namespace onnxgate
