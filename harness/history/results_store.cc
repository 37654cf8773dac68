// OpenResultsStore: a PostgreSQL URL or a SQLite file.
#include "harness/history/results_store.h"

#include "harness/history/postgres_store.h"
#include "harness/history/postgres_url.h"
#include "harness/history/sqlite_store.h"

namespace onnxgate {

StatusOr<std::unique_ptr<ResultsStore>> OpenResultsStore(const std::string& location, bool create) {
  if (location.empty()) return InvalidArgument("history database: no file or URL given");
  if (IsPostgresUrl(location)) return OpenPostgresResultsStore(location, create);
  return OpenSqliteResultsStore(location, create);
}

}  // namespace onnxgate
