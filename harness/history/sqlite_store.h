// The results history in a SQLite file: one file, WAL journaling, safe for concurrent writers on
// one machine (a writer waits up to the busy timeout for another to finish, then fails naming the
// file), each Append one BEGIN IMMEDIATE transaction with prepared statements.
#pragma once

#include <memory>
#include <string>

#include "harness/history/results_store.h"

namespace onnxgate {

struct SqliteStoreOptions {
  // How long a writer waits for another writer's transaction before it fails as locked.
  int busy_timeout_ms = 10000;
};

// OpenResultsStore's SQLite half (see results_store.h for `create` and the errors).
StatusOr<std::unique_ptr<ResultsStore>> OpenSqliteResultsStore(
    const std::string& path, bool create, const SqliteStoreOptions& options = {});

}  // namespace onnxgate
