// ExecutionProvider: a named set of kernels and the capability check that takes a node or
// declines it with a reason (no kernel for the op, its version or its types; or a limit of the
// provider itself).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/data_type.h"
#include "runtime/graph/graph.h"
#include "runtime/kernel/kernel_registry.h"

namespace onnx {
class NodeProto;
}

namespace onnxgate {

// What a provider sees when asked whether it takes a node.
struct NodeRequest {
  const onnx::NodeProto* node = nullptr;
  std::string domain;                           // "" for ai.onnx
  int since_version = 0;                        // the node's active op version
  std::vector<DataType> input_types;            // kUndefined where unknown or omitted
  std::vector<DataType> output_types;           // kUndefined where unknown or omitted
  std::map<std::string, DataType> bound_types;  // schema type constraint -> element type
};

// The nodes of one graph the session placed on a provider, each with a kernel of its own,
// offered to the provider so that it may run several of them as one kernel (ClaimSubgraphs).
struct SubgraphOffer {
  const Graph* graph = nullptr;
  std::vector<int> nodes;           // indices into graph->proto().node(), in execution order
  std::vector<int> since_versions;  // the active op version of each of `nodes`
  // How often value `name` is read: as a node input (twice by a node that reads it twice), by
  // the subgraphs of a node, and as a graph output.
  std::function<int(const std::string&)> readers;
  // The tensor known at load for `name` (an initializer no input overrides, a Constant's
  // value), or null.
  std::function<const Tensor*(const std::string&)> constant;
};

// Nodes a provider runs as one kernel. The session runs the kernel where the last of the nodes
// would have run, so every value of `outputs` that other nodes read must be read after that
// node only; the session refuses a claim that breaks this or takes a node twice.
struct SubgraphClaim {
  std::string name;                 // shown with each claimed node's placement ("conv1+relu1")
  std::vector<int> nodes;           // from the offer, in execution order
  std::vector<std::string> inputs;  // the kernel's inputs, in its order ("" for an omitted one)
  std::vector<std::string>
      outputs;  // the kernel's outputs: every value of the nodes read elsewhere
  std::unique_ptr<OpKernel> kernel;
};

class ExecutionProvider {
 public:
  virtual ~ExecutionProvider() = default;
  virtual const std::string& name() const = 0;
  virtual const KernelRegistry& registry() const = 0;
  // The kernel that would run the node here, or Unimplemented saying why this provider declines.
  // The default looks the node up in registry().
  virtual StatusOr<const KernelDef*> Claim(const NodeRequest& request) const;
  // The most intra-op threads this provider's kernels can use: 1 for a provider whose kernels
  // all run on the calling thread. A load asking for more is refused, so a latency labelled
  // "2 threads" is never a one-thread measurement.
  virtual int max_intra_op_threads() const { return 1; }
  // The provider a session with `threads` intra-op threads (2 to max_intra_op_threads()) uses:
  // a provider whose kernels parallelise returns one set up for that many, so that `--threads`
  // reaches its kernels. nullptr (the default): this provider serves every count. Errors are
  // the provider's own (a device or library that cannot be set up so).
  virtual StatusOr<std::shared_ptr<const ExecutionProvider>> ForIntraOpThreads(int threads) const {
    (void)threads;
    return std::shared_ptr<const ExecutionProvider>();
  }
  // The groups of offered nodes this provider runs as one kernel each (a fused primitive, a
  // device program); the other nodes keep their own kernels. None by default. Errors are the
  // provider's and fail the load.
  virtual StatusOr<std::vector<SubgraphClaim>> ClaimSubgraphs(const SubgraphOffer& offer) const {
    (void)offer;
    return std::vector<SubgraphClaim>();
  }
};

// A provider whose registry a registration function fills once, when it is created.
class RegistryProvider : public ExecutionProvider {
 public:
  // Internal error when registration fails (two kernels claiming the same node is a bug).
  static StatusOr<std::shared_ptr<const ExecutionProvider>> Create(
      std::string name, const std::function<Status(KernelRegistry&)>& register_fn);

  const std::string& name() const override { return name_; }
  const KernelRegistry& registry() const override { return registry_; }

 private:
  RegistryProvider(std::string name, KernelRegistry registry)
      : name_(std::move(name)), registry_(std::move(registry)) {}

  std::string name_;
  KernelRegistry registry_;
};

}  // namespace onnxgate
