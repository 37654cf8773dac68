// Ordering, equality and labels of the history's series keys.
#include "harness/history/history_records.h"

#include <tuple>

namespace onnxgate {
namespace {

auto Fields(const LatencyKey& k) {
  return std::tie(k.model, k.runtime, k.ep, k.threads, k.shapes, k.optimization_level, k.clock);
}
auto Fields(const CaseKey& k) { return std::tie(k.suite, k.case_name, k.runtime, k.ep); }

}  // namespace

bool operator<(const LatencyKey& a, const LatencyKey& b) { return Fields(a) < Fields(b); }
bool operator==(const LatencyKey& a, const LatencyKey& b) { return Fields(a) == Fields(b); }
bool operator<(const CaseKey& a, const CaseKey& b) { return Fields(a) < Fields(b); }
bool operator==(const CaseKey& a, const CaseKey& b) { return Fields(a) == Fields(b); }

std::string LatencyKeyLabel(const LatencyKey& key) {
  std::string label = key.model + " " + key.runtime + "/" + key.ep;
  label += " t=" + std::to_string(key.threads);
  if (!key.shapes.empty()) label += " " + key.shapes;
  label += " O" + std::to_string(key.optimization_level);
  label += " " + key.clock;
  return label;
}

}  // namespace onnxgate
