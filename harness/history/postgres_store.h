// The results history in a PostgreSQL database (libpq), for CI runners that share one history:
// given as a postgresql:// or postgres:// URL; each Append one transaction, appenders taking
// turns so that run ids follow the order runs are committed in.
#pragma once

#include <memory>
#include <string>

#include "harness/history/results_store.h"

namespace onnxgate {

struct PostgresStoreOptions {
  // How long connecting may take before it fails (the URL's own connect_timeout wins).
  int connect_timeout_s = 10;
  // How long an append waits for another appender's transaction before it fails as locked.
  int lock_timeout_ms = 10000;
};

// OpenResultsStore's PostgreSQL half (see results_store.h for `create` and the errors). With
// `create`, a database without the history's tables gets them beside whatever else it holds.
StatusOr<std::unique_ptr<ResultsStore>> OpenPostgresResultsStore(
    const std::string& url, bool create, const PostgresStoreOptions& options = {});

}  // namespace onnxgate
