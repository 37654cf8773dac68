// Test helpers for the results stores.
#include "harness/history/store_test_util.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "harness/history/testing/postgres_server.h"

namespace onnxgate {
namespace {

namespace fs = std::filesystem;

template <typename T>
void Compare(std::ostringstream& out, const char* field, const T& a, const T& b) {
  if (!(a == b)) out << field << ": " << a << " != " << b << "; ";
}

void Compare(std::ostringstream& out, const char* field, const std::optional<double>& a,
             const std::optional<double>& b) {
  if (a == b) return;
  out << field << ": " << (a ? std::to_string(*a) : "none")
      << " != " << (b ? std::to_string(*b) : "none") << "; ";
}

StatusOr<std::unique_ptr<PostgresTestServer>>& SharedServer() {
  static StatusOr<std::unique_ptr<PostgresTestServer>> server = PostgresTestServer::Start();
  return server;
}

}  // namespace

TempFolder::TempFolder() {
  std::string pattern = (fs::temp_directory_path() / "onnxgate-history-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) std::abort();
  path_ = pattern;
}

TempFolder::~TempFolder() {
  std::error_code error;
  fs::remove_all(path_, error);
}

HistoryRun SampleRun(int index, const std::string& branch, const std::string& machine,
                     const std::string& kind) {
  HistoryRun run;
  run.context = {kind,       "commit" + std::to_string(index),
                 branch,     "0.1.0",
                 "onnxgate", "0.1.0",
                 machine,    "2026-11-29T12:00:" + std::to_string(10 + index % 50) + "Z"};
  for (const char* model : {"mlp", "resnet18"}) {
    LatencyPoint p;
    p.key = {model, "onnxgate", "ref", 2, "batch=4,seq=128", 1, "wall"};
    p.model_sha256 = std::string(model) + "-sha";
    p.samples = 27 + index;
    p.median_ms = 1.0 / 3.0 + index;  // not exact in decimal: must round-trip bit for bit
    p.min_ms = 0.1 * index;
    p.p90_ms = 1e-9 + index;
    p.mean_ms = 12345.678901234567;
    p.cv = 0.031 + index * 1e-4;
    run.latency.push_back(p);
  }
  run.cases.push_back({{"onnx-node", "test_add", "onnxgate", "ref"}, "PASS", 0.25 + index});
  run.cases.push_back({{"onnx-node", "test_relu", "onnxgate", "ref"}, "FAIL", std::nullopt});
  return run;
}

std::string Differences(const HistoryContext& a, const HistoryContext& b) {
  std::ostringstream out;
  Compare(out, "kind", a.kind, b.kind);
  Compare(out, "commit", a.commit, b.commit);
  Compare(out, "branch", a.branch, b.branch);
  Compare(out, "tool_version", a.tool_version, b.tool_version);
  Compare(out, "runtime", a.runtime, b.runtime);
  Compare(out, "runtime_version", a.runtime_version, b.runtime_version);
  Compare(out, "machine", a.machine, b.machine);
  Compare(out, "recorded", a.recorded, b.recorded);
  return out.str();
}

std::string Differences(const LatencyPoint& a, const LatencyPoint& b) {
  std::ostringstream out;
  out.precision(17);
  if (!(a.key == b.key)) out << LatencyKeyLabel(a.key) << " != " << LatencyKeyLabel(b.key) << "; ";
  Compare(out, "model_sha256", a.model_sha256, b.model_sha256);
  Compare(out, "samples", a.samples, b.samples);
  Compare(out, "median_ms", a.median_ms, b.median_ms);
  Compare(out, "min_ms", a.min_ms, b.min_ms);
  Compare(out, "p90_ms", a.p90_ms, b.p90_ms);
  Compare(out, "mean_ms", a.mean_ms, b.mean_ms);
  Compare(out, "cv", a.cv, b.cv);
  return out.str();
}

std::string Differences(const CasePoint& a, const CasePoint& b) {
  std::ostringstream out;
  out.precision(17);
  Compare(out, "suite", a.key.suite, b.key.suite);
  Compare(out, "case_name", a.key.case_name, b.key.case_name);
  Compare(out, "runtime", a.key.runtime, b.key.runtime);
  Compare(out, "ep", a.key.ep, b.key.ep);
  Compare(out, "verdict", a.verdict, b.verdict);
  Compare(out, "margin", a.margin, b.margin);
  return out.str();
}

StatusOr<std::string> SharedPostgresServerUrl() {
  auto& server = SharedServer();
  if (!server.ok()) return server.status();
  return (*server)->url();
}

Status StopSharedPostgresServer() {
  auto& server = SharedServer();
  if (!server.ok()) return server.status();
  return (*server)->Stop();
}

Status RestartSharedPostgresServer() {
  auto& server = SharedServer();
  if (!server.ok()) return server.status();
  return (*server)->Restart();
}

StatusOr<std::string> FreshPostgresDatabase() {
  static int next = 0;
  ONNXGATE_ASSIGN_OR_RETURN(std::string url, SharedPostgresServerUrl());
  return CreatePostgresDatabase(
      url, "history_" + std::to_string(getpid()) + "_" + std::to_string(next++));
}

}  // namespace onnxgate
