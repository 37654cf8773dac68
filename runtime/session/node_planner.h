// Node planning: the active op version from the ONNX schema registry, the binding of the node's
// types to its schema's constraints, the choice of provider under the fallback policy (with every
// decline recorded) and the construction of the kernel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/graph/graph.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/model/model.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

// What compiling a graph needs, shared by a session's main graph and all its subgraphs.
struct CompileContext {
  const Model* model = nullptr;
  const std::vector<std::shared_ptr<const ExecutionProvider>>* providers = nullptr;
  FallbackPolicy fallback = FallbackPolicy::kAllow;
  std::vector<NodePlacement>* placements = nullptr;  // appended to in compile order
};

// A node ready to run: its kernel, and the label that names the node and its op version in
// every error of its kernel ("Relu node 'Relu#0' (version 14)"). Kernels never name their node
// themselves; this label is added once, by the session.
struct PlannedNode {
  std::unique_ptr<OpKernel> kernel;
  std::string label;
  const ExecutionProvider* provider = nullptr;  // the provider that took the node
  size_t placement = 0;                         // the index of its entry in ctx.placements
};

// Chooses the provider for node `index` of `graph`, records its placement under `display_name`
// and builds its kernel. Unimplemented when no provider takes the node (or the fallback policy
// forbids the one that would), naming the node and every provider's reason. A kernel factory's
// error is returned with the node's label and the provider.
StatusOr<PlannedNode> PlanNode(const CompileContext& ctx, const Graph& graph, int index,
                               const std::string& display_name,
                               std::vector<const Tensor*> constant_inputs,
                               KernelInfo::SubgraphCompiler compiler);

}  // namespace onnxgate
