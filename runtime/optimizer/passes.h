// The optimizer's passes over the main graph of a ModelProto being rewritten. Each returns
// whether it changed the graph; none fails because of what the model holds (a rewrite that
// does not apply is skipped).
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <unordered_set>

#include "runtime/optimizer/optimizer.h"

namespace onnxgate {

// What every pass needs to know about the model being rewritten.
struct PassContext {
  const Model* original = nullptr;  // opsets, folder (external data), display name
  const OptimizerOptions* options = nullptr;
  OptimizationReport* report = nullptr;  // never null
  std::shared_ptr<const ExecutionProvider> fold_provider;
  int opset = -1;  // the ai.onnx opset the model imports
};

// Gives every unnamed node of the main graph the name the session would show for it at level 0
// ("<op_type>#<index>"), so that placements read the same at every level.
void NameUnnamedNodes(onnx::GraphProto* graph);

// Removes nodes none of whose outputs reaches a graph output (directly, through other nodes, or
// through a subgraph that uses it), then initializers nothing uses (graph inputs and their
// initializers stay: they are the model's interface), then value_info of names no longer defined.
bool RemoveDeadNodes(onnx::GraphProto* graph, OptimizationReport* report);

// Folds every deterministic node whose inputs are all constants (see optimizer.h).
bool FoldConstants(onnx::ModelProto* model, const PassContext& ctx);

// Level 2 fusions; each applies as often as it matches.
bool FuseConvBatchNorm(onnx::GraphProto* graph, const PassContext& ctx);
bool FuseMatMulAdd(onnx::GraphProto* graph, const PassContext& ctx);
bool FuseLayerNormalization(onnx::GraphProto* graph, const PassContext& ctx);
bool FuseGelu(onnx::GraphProto* graph, const PassContext& ctx);

}  // namespace onnxgate
