// The nodes of a loaded model that fell back: placed on a provider other than the first of its
// target's list (harness/ep_target.h), whatever the runtime. Each is marked shape-only or not, so
// that reports count the nodes that only compute shapes apart from those that compute values:
//   always shape-only: Shape, Size, Constant (of ai.onnx);
//   shape-only when every output is int64, by the model's declared and inferred types:
//     ConstantOfShape, Unsqueeze, Squeeze, Concat, Gather, Slice, Cast, Reshape, Range;
//   anything else, or a node whose output types are unknown, computes values.
// Int64 is the type ONNX gives shapes; the same ops on float tensors move activations, which a
// fallback makes a real copy between providers, so they count as compute nodes.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "reports/records.h"
#include "runtime/api/runtime.h"

namespace onnx {
class ModelProto;
}

namespace onnxgate {

// The rule above for one node: its op (domain "" or "ai.onnx" only) and whether every output is
// known to be int64.
bool IsShapeOnlyNode(const std::string& domain, const std::string& op_type, bool int64_outputs);

// Whether any node of the model's main graph is one whose shape-only-ness depends on its output
// types (so that NodesWithInt64Outputs is worth its type inference).
bool HasTypeDependentNodes(const onnx::ModelProto& model);

// The nodes of the main graph that a load must run: at optimization level 0 every node; above
// it the nodes that depend on a graph input (a node with a subgraph counts as one), since
// constant folding may remove the others. Zero of them: a runtime may rightly place nothing.
int NodesToPlace(const onnx::ModelProto& model, int optimization_level);

// The names of the main graph's nodes whose every output is int64 (a node without a name as
// runtimes show it, "<op_type>#<index>"), by the types the model declares and ONNX's type
// inference adds to a copy of it (in a child process: a crash there costs only the types).
std::set<std::string> NodesWithInt64Outputs(const onnx::ModelProto& model);

// The placements on a provider other than `first_provider`, in placement order, marked by the
// rule; `int64_nodes` (NodesWithInt64Outputs) may be null when the types are unknown.
std::vector<FallbackRecord> FallbackNodes(const std::vector<NodePlacement>& placements,
                                          const std::string& first_provider,
                                          const std::set<std::string>* int64_nodes);

}  // namespace onnxgate
