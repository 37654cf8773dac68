// Session: a model compiled once for an ordered list of execution providers under a fallback
// policy, with every node's placement recorded; Run is const and safe from many threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/api/runtime.h"
#include "runtime/model/model.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate {

class GraphExecutor;

struct SessionOptions {
  FallbackPolicy fallback = FallbackPolicy::kAllow;
  // The graph optimization level the model was prepared at (0 to kMaxOptimizationLevel). The
  // session runs the graph it is given as written: the rewriting of levels 1 and 2 happens before
  // it, in runtime/optimizer, which the built-in runtime calls. Other values are InvalidArgument.
  int optimization_level = 0;
};

class Session {
 public:
  // Builds every kernel. Errors name the model and the node: Unimplemented when no provider
  // takes a node (or the policy forbids the fallback that would), InvalidArgument for a broken
  // graph or bad options.
  static StatusOr<std::unique_ptr<const Session>> Create(
      std::shared_ptr<const Model> model,
      std::vector<std::shared_ptr<const ExecutionProvider>> providers,
      const SessionOptions& options = {});
  ~Session();

  const Model& model() const { return *model_; }
  // The inputs a caller must feed (graph inputs without an initializer), in graph order.
  const std::vector<std::string>& input_names() const;
  const std::vector<std::string>& output_names() const;
  // Every node's provider and the reasons of the providers that declined it; nodes of
  // subgraphs follow their parent node, named "<parent>/<attribute>/<node>".
  const std::vector<NodePlacement>& placements() const { return placements_; }

  // Runs once with named feeds (inputs with an initializer may be fed to override it). Returns
  // the graph outputs in output_names() order. InvalidArgument naming the input for a missing,
  // unknown, repeated or mistyped feed. The copies of provider-resident tensors to the host this
  // run makes are added to `transfers` when it is not null (resident_tensor.h).
  StatusOr<std::vector<Value>> Run(const std::vector<NamedValue>& feeds,
                                   TransferStats* transfers = nullptr) const;

 private:
  Session() = default;

  std::shared_ptr<const Model> model_;
  std::vector<std::shared_ptr<const ExecutionProvider>> providers_;
  std::vector<NodePlacement> placements_;
  std::unique_ptr<GraphExecutor> executor_;
};

}  // namespace onnxgate
