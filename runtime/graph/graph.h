// Graph: a GraphProto resolved for execution: initializers as tensors, nodes in topological order,
// the statically known type of each value name, and the names taken from enclosing graphs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnx {
class GraphProto;
class NodeProto;
class TypeProto;
}  // namespace onnx

namespace onnxgate {

// What is known about a value before running: its kind, element type and (for tensors) shape.
struct ValueType {
  Value::Kind kind = Value::Kind::kNone;  // kNone when unknown
  DataType elem_type = DataType::kUndefined;
  Value::Kind inner_kind = Value::Kind::kNone;  // for optionals: what they hold
  bool has_shape = false;                       // the rank (and dims below) are known
  std::vector<int64_t> dims;                    // -1 where symbolic or unknown

  bool known() const { return kind != Value::Kind::kNone; }
  // "tensor(float)[N,4]" style, with "?" for unknown dims: "tensor(float)[?,4]".
  std::string ToString() const;
};

// The ValueType of an ONNX TypeProto; maps and sparse tensors come back as unknown.
ValueType ValueTypeFromProto(const onnx::TypeProto& type);

// "Relu node 'relu1'", or "Relu node #3" (its index in the graph) when the node has no name.
std::string NodeLabel(const onnx::NodeProto& node, int index);
// The node's name, or "<op_type>#<index>" when it has none.
std::string NodeDisplayName(const onnx::NodeProto& node, int index);

// Names a graph and its nested subgraphs use without defining them, in order of first use.
std::vector<std::string> FreeNames(const onnx::GraphProto& graph);

class Graph {
 public:
  // Resolves `proto`, which must outlive the Graph; initializers with external data are read
  // relative to `base_dir`. `parent` is the enclosing graph of a subgraph (it must outlive this
  // one); names a subgraph uses that neither it nor an enclosing graph defines are errors.
  static StatusOr<std::unique_ptr<const Graph>> Build(const onnx::GraphProto& proto,
                                                      const std::string& base_dir,
                                                      const Graph* parent = nullptr);

  const onnx::GraphProto& proto() const { return proto_; }
  const std::string& name() const;
  const Graph* parent() const { return parent_; }
  // "graph 'name'" for messages.
  std::string Label() const;

  // All graph inputs in order, including those with an initializer (defaults a caller may
  // override, as IR versions < 4 write every initializer).
  const std::vector<std::string>& inputs() const { return inputs_; }
  // The inputs without initializer: what a caller must feed.
  const std::vector<std::string>& required_inputs() const { return required_inputs_; }
  const std::vector<std::string>& outputs() const { return outputs_; }
  // The declared type of graph input i.
  const ValueType& input_type(size_t i) const { return input_types_[i]; }

  const std::map<std::string, Tensor>& initializers() const { return initializers_; }
  // An initializer that no graph input can override, so its value is known at load; else null.
  const Tensor* ConstantInitializer(const std::string& name) const;

  // Indices into proto().node() in a topological order; ties keep the order of the file.
  const std::vector<int>& topological_order() const { return order_; }
  // For proto().node(i): the names its subgraph attributes use from this or enclosing graphs.
  const std::vector<std::string>& implicit_inputs(int node_index) const {
    return implicit_inputs_[node_index];
  }
  // Names this graph and its subgraphs take from enclosing graphs.
  const std::vector<std::string>& outer_scope_names() const { return outer_scope_names_; }

  // Whether this graph defines `name` (input, initializer or node output).
  bool DefinesLocally(const std::string& name) const { return defined_.count(name) > 0; }
  // Whether this graph or an enclosing graph defines it.
  bool Defines(const std::string& name) const;
  // The statically known type of a name visible here (locally or from enclosing graphs).
  ValueType TypeOf(const std::string& name) const;
  DataType ElementType(const std::string& name) const { return TypeOf(name).elem_type; }

 private:
  Graph(const onnx::GraphProto& proto, const Graph* parent) : proto_(proto), parent_(parent) {}
  Status Resolve(const std::string& base_dir);
  Status CollectDefinitions();
  Status SortNodes();
  void CollectTypes();

  const onnx::GraphProto& proto_;
  const Graph* parent_;
  std::vector<std::string> inputs_;
  std::vector<std::string> required_inputs_;
  std::vector<ValueType> input_types_;
  std::vector<std::string> outputs_;
  std::map<std::string, Tensor> initializers_;
  std::unordered_set<std::string> defined_;
  std::unordered_map<std::string, int> producer_;  // node output name -> node index
  std::vector<int> order_;
  std::vector<std::vector<std::string>> implicit_inputs_;
  std::vector<std::string> outer_scope_names_;
  std::unordered_map<std::string, ValueType> types_;
};

}  // namespace onnxgate
