// The fallback line of a bench measurement.
#include "harness/latency/bench_fallback.h"

#include <algorithm>
#include <set>
#include <utility>

#include "harness/fallback_nodes.h"
#include "runtime/model/model_file.h"

namespace onnxgate {

namespace {

constexpr size_t kMaxOpsNamed = 5;

// "Gather x2, Shape x1, +3 more": the ops by count, most first.
std::string OpsByCount(const FallbackSummary& summary) {
  std::vector<std::pair<std::string, int64_t>> ops(summary.by_op.begin(), summary.by_op.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string list;
  for (size_t i = 0; i < ops.size() && i < kMaxOpsNamed; ++i) {
    list += (list.empty() ? "" : ", ") + ops[i].first + " x" + std::to_string(ops[i].second);
  }
  if (ops.size() > kMaxOpsNamed)
    list += ", +" + std::to_string(ops.size() - kMaxOpsNamed) + " more";
  return list;
}

}  // namespace

std::string DescribeBenchFallback(size_t placed, const std::vector<FallbackRecord>& fallbacks) {
  if (fallbacks.empty()) return "";
  std::set<std::string> providers;
  for (const FallbackRecord& f : fallbacks) providers.insert(f.ep);
  std::string on;
  for (const std::string& p : providers) on += (on.empty() ? "" : "+") + p;
  const FallbackSummary summary = SummarizeFallbacks(fallbacks);
  return std::to_string(fallbacks.size()) + " of " + std::to_string(placed) + " nodes on " + on +
         " (" + OpsByCount(summary) + "; " + std::to_string(summary.shape_only) + " shape-only)";
}

std::string BenchFallbackOf(const LoadedModel& model, const std::string& first_provider,
                            const std::string& model_path) {
  const std::vector<NodePlacement> placements = model.placements();
  std::vector<FallbackRecord> fallbacks = FallbackNodes(placements, first_provider, nullptr);
  if (fallbacks.empty()) return "";
  auto file = ModelFile::Read(model_path);
  if (file.ok() && HasTypeDependentNodes(file->proto())) {
    const std::set<std::string> int64_nodes = NodesWithInt64Outputs(file->proto());
    fallbacks = FallbackNodes(placements, first_provider, &int64_nodes);
  }
  return DescribeBenchFallback(placements.size(), fallbacks);
}

}  // namespace onnxgate
