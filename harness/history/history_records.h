// What a results history holds: one entry per run of `bench` or `gate` (the commit, branch, tool
// and runtime versions, machine fingerprint and time), with the latency of every model x EP x
// threads x shapes x optimization level it measured and the verdict and error margin of every
// case it ran. Plain values: the stores (results_store.h) write and read them, the trends and the
// change-point detector (change_points.h) read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onnxgate {

// Where and what a run was.
struct HistoryContext {
  std::string kind;  // "bench" or "gate"
  std::string commit;
  std::string branch;
  std::string tool_version;
  std::string runtime;
  std::string runtime_version;
  std::string machine;   // the machine fingerprint's id (harness/latency/fingerprint.h)
  std::string recorded;  // UTC, ISO 8601
};

// What keys a latency series: the same model name measured the same way. The model's hash is
// recorded beside the key, never in it, so a re-exported model continues its series.
struct LatencyKey {
  std::string model;
  std::string runtime;
  std::string ep;
  int64_t threads = 1;
  std::string shapes;  // "batch=4,seq=128"; empty when the model has no symbolic dimension
  int64_t optimization_level = 0;
  std::string clock = "wall";
};
bool operator<(const LatencyKey& a, const LatencyKey& b);
bool operator==(const LatencyKey& a, const LatencyKey& b);
std::string LatencyKeyLabel(const LatencyKey& key);  // "resnet18 onnxgate/dnnl t=2 batch=4 O0 wall"

struct LatencyPoint {
  LatencyKey key;
  std::string model_sha256;
  int64_t samples = 0;
  double median_ms = 0.0;
  double min_ms = 0.0;
  double p90_ms = 0.0;
  double mean_ms = 0.0;
  double cv = 0.0;
};

struct CaseKey {
  std::string suite;
  std::string case_name;
  std::string runtime;
  std::string ep;
};
bool operator<(const CaseKey& a, const CaseKey& b);
bool operator==(const CaseKey& a, const CaseKey& b);

struct CasePoint {
  CaseKey key;
  std::string verdict;  // as the report writes it: "PASS", "FAIL", ...
  // The share of its tolerance the case's worst output used (max abs error over the allowed
  // error, 1 = at the limit); absent when nothing was compared.
  std::optional<double> margin;
};

struct HistoryRun {
  HistoryContext context;
  std::vector<LatencyPoint> latency;
  std::vector<CasePoint> cases;
};

// A point as stored, with the run it came from; runs are numbered in the order they were
// appended, which is the order of a series.
template <typename Point>
struct Stored {
  int64_t run_id = 0;
  HistoryContext context;
  Point point;
};

}  // namespace onnxgate
