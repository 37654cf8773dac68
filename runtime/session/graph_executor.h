// GraphExecutor: one graph compiled to kernels, with value slots, lifetimes and outer-scope
// lookups; the main graph of a session and every If/Loop/Scan body are GraphExecutors.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/session/node_planner.h"

namespace onnxgate {

class GraphExecutor : public SubgraphExecutor {
 public:
  // Compiles `graph` (owned from now on). `parent` is the executor of the enclosing graph, used
  // at load time for constants it knows; `prefix` goes in front of node names in placements
  // ("If#3/then_branch/").
  static StatusOr<std::unique_ptr<GraphExecutor>> Compile(const CompileContext& ctx,
                                                          std::unique_ptr<const Graph> graph,
                                                          const GraphExecutor* parent,
                                                          const std::string& prefix);
  ~GraphExecutor() override;

  const Graph& graph() const { return *graph_; }
  const std::vector<std::string>& input_names() const override { return graph_->inputs(); }
  const std::vector<std::string>& output_names() const override { return graph_->outputs(); }

  // `inputs[i]` is graph input i, or null to use its initializer (an error when it has none).
  // `outer` resolves the names the graph takes from enclosing graphs (null for a main graph).
  // Resident tensors (resident_tensor.h) reach only kernels of their domain; every other
  // consumer and every output gets a host copy, made once per value and counted in
  // `transfers` (when not null).
  StatusOr<std::vector<Value>> Execute(const std::vector<const Value*>& inputs, const Scope* outer,
                                       TransferStats* transfers) const;

  // SubgraphExecutor: inputs bound positionally.
  StatusOr<std::vector<Value>> Run(const std::vector<Value>& inputs,
                                   const Scope& outer) const override;

  // A tensor known at load for `name`: a constant initializer or a Constant node's value, here
  // or in an enclosing graph; null otherwise.
  const Tensor* ConstantFor(const std::string& name) const;

 private:
  enum class SlotKind { kInput, kConstant, kNode, kOuter };
  struct Slot {
    std::string name;
    SlotKind kind = SlotKind::kNode;
    int input_index = -1;             // kInput
    const Value* constant = nullptr;  // kConstant, or the default of a kInput
  };
  struct Step {
    std::string label;       // "Relu node 'Relu#0' (version 14)", added to the kernel's errors
    std::vector<int> nodes;  // the graph's nodes it runs: one, or a provider's subgraph claim
    const ExecutionProvider* provider = nullptr;
    std::unique_ptr<OpKernel> kernel;
    std::vector<int> inputs;     // slot per input, -1 when omitted
    std::vector<int> outputs;    // slot per output, -1 when omitted
    std::vector<bool> required;  // whether output j is used later or is a graph output
    std::vector<int> release;    // slots whose last use is this step
  };
  class RunScope;

  explicit GraphExecutor(std::unique_ptr<const Graph> graph, const GraphExecutor* parent)
      : graph_(std::move(graph)), parent_(parent) {}
  int SlotFor(const std::string& name) const;
  int AddSlot(Slot slot);
  void CollectConstantNodes(const std::string& base_dir);
  Status CompileSteps(const CompileContext& ctx, const std::string& prefix);
  // Offers each provider the nodes placed on it and replaces the steps of every group it
  // claims with one step, where the group's last node ran. `placement[s]` is the index in
  // ctx.placements of step s's node.
  Status ApplySubgraphClaims(const CompileContext& ctx, const std::vector<size_t>& placement);
  void ComputeLifetimes();

  // Declared first: destroyed last, after the kernels and the subgraphs that point into it.
  std::unique_ptr<const Graph> graph_;
  const GraphExecutor* parent_;  // only used while compiling
  // Known at load: initializers no input overrides, and the values of Constant nodes.
  std::unordered_map<std::string, Value> constants_;
  // Initializers that are also graph inputs: defaults a caller may override.
  std::unordered_map<std::string, Value> defaults_;
  std::vector<Slot> slots_;
  std::unordered_map<std::string, int> slot_by_name_;
  std::vector<Step> steps_;
  std::vector<int> output_slots_;
};

}  // namespace onnxgate
