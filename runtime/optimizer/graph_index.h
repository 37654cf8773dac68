// What the optimizer's passes ask of one graph while they rewrite it: who produces and who
// consumes each name, which names leave the graph (graph outputs, names its subgraphs use),
// which names are constants (and their values), and the statically known type of a name. An
// index describes the GraphProto as it was when built; a pass rebuilds it after each rewrite.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/graph/graph.h"

namespace onnx {
class GraphProto;
class NodeProto;
class TensorProto;
}  // namespace onnx

namespace onnxgate {

class GraphIndex {
 public:
  // `base_dir` is where initializers with external data resolve (the model's folder).
  GraphIndex(const onnx::GraphProto& graph, std::string base_dir);

  const onnx::GraphProto& graph() const { return graph_; }

  // The index of the node that outputs `name`, or -1 (graph input, initializer, outer scope).
  int Producer(const std::string& name) const;
  // One entry per use of `name` as an explicit node input (a node using it twice is listed
  // twice), in node order.
  const std::vector<int>& Consumers(const std::string& name) const;
  // Whether `name` is a graph output or is used by a subgraph of some node: its value is needed
  // beyond the explicit inputs that Consumers lists.
  bool Escapes(const std::string& name) const;
  // The node that is the only user of `name` (exactly one explicit use, no escape), or -1.
  int SoleConsumer(const std::string& name) const;

  // The TensorProto of a constant: an initializer that no graph input can override (a graph
  // input with an initializer is a default a caller may feed, IR version >= 4), or the `value`
  // of a Constant node. Null for anything else.
  const onnx::TensorProto* ConstantProto(const std::string& name) const;
  bool IsConstant(const std::string& name) const { return ConstantProto(name) != nullptr; }
  // The value of a constant; nullopt when `name` is none or its data cannot be read.
  std::optional<Tensor> ConstantValue(const std::string& name) const;
  // The type of `name` as the model declares or inference found it (value_info, inputs,
  // outputs), or the constant's own type and shape.
  ValueType TypeOf(const std::string& name) const;

  // Every name defined or used anywhere in the graph and its subgraphs (to make new names).
  const std::unordered_set<std::string>& all_names() const { return all_names_; }

 private:
  const onnx::GraphProto& graph_;
  std::string base_dir_;
  std::unordered_map<std::string, int> producer_;
  std::unordered_map<std::string, std::vector<int>> consumers_;
  std::unordered_set<std::string> escaping_;
  std::unordered_set<std::string> graph_inputs_;
  std::unordered_map<std::string, const onnx::TensorProto*> constants_;
  std::unordered_map<std::string, ValueType> types_;
  std::unordered_set<std::string> all_names_;
};

// A name not in `taken` (and then added to it): `base`, else `base_1`, `base_2`, ...
std::string UniqueName(const std::string& base, std::unordered_set<std::string>* taken);

// The node's integer / float / ints attribute, or `fallback` when absent.
int64_t IntAttribute(const onnx::NodeProto& node, const std::string& name, int64_t fallback);
float FloatAttribute(const onnx::NodeProto& node, const std::string& name, float fallback);
std::optional<std::vector<int64_t>> IntsAttribute(const onnx::NodeProto& node,
                                                  const std::string& name);
bool HasAttribute(const onnx::NodeProto& node, const std::string& name);
// Whether the node has a graph-valued attribute (If, Loop, Scan, SequenceMap, ...).
bool HasSubgraph(const onnx::NodeProto& node);
// The non-empty outputs of a node.
std::vector<std::string> DefinedOutputs(const onnx::NodeProto& node);

// Bytes a tensor's values take: element storage, or the characters of a string tensor plus 8
// per element.
int64_t ValueBytes(const Tensor& tensor);

}  // namespace onnxgate
