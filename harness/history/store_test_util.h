// Test helpers for the results stores: temporary folders, sample runs with exactly
// representable and awkward values, field-by-field comparison, and the locations a store test
// opens (a SQLite file in a temporary folder, or a fresh database on a PostgreSQL test server
// started once per test process).
#pragma once

#include <memory>
#include <string>

#include "harness/history/history_records.h"
#include "harness/history/results_store.h"
#include "runtime/base/status.h"

namespace onnxgate {

// A fresh folder under the system's temporary folder, removed with everything in it.
class TempFolder {
 public:
  TempFolder();
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Run `index` of a series: two latency points (mlp and resnet18 on onnxgate/ref) and two cases
// (one with a margin, one without), its values depending on `index`.
HistoryRun SampleRun(int index, const std::string& branch = "main",
                     const std::string& machine = "m1", const std::string& kind = "bench");

// Empty when equal, otherwise what differs.
std::string Differences(const HistoryContext& a, const HistoryContext& b);
std::string Differences(const LatencyPoint& a, const LatencyPoint& b);
std::string Differences(const CasePoint& a, const CasePoint& b);

// The PostgreSQL server of this test process, started on first use and stopped at exit; an
// Unavailable status says why none can start here (the test then skips).
StatusOr<std::string> SharedPostgresServerUrl();
// Stops and restarts the shared server.
Status StopSharedPostgresServer();
Status RestartSharedPostgresServer();
// A fresh, empty database on the shared server.
StatusOr<std::string> FreshPostgresDatabase();

}  // namespace onnxgate
