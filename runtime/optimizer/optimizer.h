// Graph optimization: a stage between model loading and the session that rewrites a copy of a
// loaded model, so that a harness can check that optimization does not change numerics.
//
//   level 1: constant folding (nodes whose inputs are all constants, evaluated once on the ref
//            provider and replaced by initializers) and dead-node removal;
//   level 2: level 1, then fusions into standard ONNX ops: Conv+BatchNormalization -> Conv,
//            MatMul+Add -> Gemm, the LayerNormalization pattern -> LayerNormalization (opset
//            >= 17), the Gelu pattern -> Gelu (opset >= 20).
//
// Only the main graph is rewritten (subgraphs stay as written). A fold or fusion that does not
// apply, or whose evaluation fails, is skipped: optimizing never fails because of what the model
// holds. The rewritten model is checked again like any loaded model (Model::FromProto: ONNX's
// checker, shape inference); a rewrite the checker refuses is an Internal error, a bug here.
// The session does not depend on this library; the built-in runtime calls it before
// Session::Create. docs/architecture.md, "Graph optimization levels", has the rules in full.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/base/status.h"
#include "runtime/model/model.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

struct OptimizerOptions {
  int level = 1;  // 1 or 2
  // A node is folded only when its outputs take at most max(this, the bytes of its inputs):
  // folding never grows a model by more than this per node (ConstantOfShape of a large shape,
  // Expand, Tile stay nodes).
  int64_t fold_growth_limit_bytes = 64 * 1024;
  // The provider that constant folding evaluates nodes on; null: ref (created once per process).
  std::shared_ptr<const ExecutionProvider> fold_provider;
  // How the rewritten model, and the one-node model of each fold, are loaded.
  ModelOptions model_options;
};

// What the optimizer did, by node name (unnamed nodes by "<op_type>#<index>", as placements
// name them at level 0).
struct OptimizationReport {
  std::vector<std::string> folded;   // nodes replaced by initializers
  std::vector<std::string> removed;  // dead nodes
  std::vector<std::string> fused;    // the new nodes: "conv1+bn1", "mean..add_bias"
  // Folds that were tried and left alone, with the reason ("Div node 'd': ..."); never errors.
  std::vector<std::string> not_folded;
};

// The optimized model, a new Model whose proto is a rewritten copy of `model`'s (the caller's
// model is never modified), or `model` itself when nothing applies. InvalidArgument for a level
// outside 1..kMaxOptimizationLevel; Internal when a rewrite fails the model checks again.
StatusOr<std::shared_ptr<const Model>> OptimizeModel(std::shared_ptr<const Model> model,
                                                     const OptimizerOptions& options,
                                                     OptimizationReport* report = nullptr);

}  // namespace onnxgate
