// Where a bench measurement's nodes ran when fallback is allowed (bench --fallback allow|warn):
// the nodes placed outside the target's first provider, with the shape-only ones marked by
// harness/fallback_nodes.h's rule, said in one line for the table and the reports.
#pragma once

#include <string>
#include <vector>

#include "reports/records.h"
#include "runtime/api/runtime.h"

namespace onnxgate {

// "3 of 41 nodes on ref (Gather x2, Shape x1; 3 shape-only)": `fallbacks` out of `placed` nodes,
// by the providers they ran on, their ops by count (most first, at most five, then "+N more").
// Empty when `fallbacks` is.
std::string DescribeBenchFallback(size_t placed, const std::vector<FallbackRecord>& fallbacks);

// The line above for a loaded model whose placements the runtime reports now: the nodes outside
// `first_provider`. Only when there are some is the model file read again (and dropped), for the
// types the shape-only rule needs when the model has nodes whose rule depends on them; a file that
// cannot be read then leaves those nodes counted as compute nodes.
std::string BenchFallbackOf(const LoadedModel& model, const std::string& first_provider,
                            const std::string& model_path);

}  // namespace onnxgate
