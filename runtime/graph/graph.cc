// Graph resolution: definitions (single assignment), free names of subgraphs, a stable topological
// order with cycle and undefined-input errors, initializers and statically known types.
#include "runtime/graph/graph.h"

#include <onnx/onnx_pb.h>

#include <functional>
#include <queue>

#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

// Appends `name` to `out` unless it is already there (`seen` mirrors `out`).
void AddOnce(const std::string& name, std::vector<std::string>* out,
             std::unordered_set<std::string>* seen) {
  if (!name.empty() && seen->insert(name).second) out->push_back(name);
}

// The free names of every graph attribute of `node`.
std::vector<std::string> SubgraphFreeNames(const onnx::NodeProto& node) {
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (const onnx::AttributeProto& attr : node.attribute()) {
    if (attr.has_g()) {
      for (const std::string& n : FreeNames(attr.g())) AddOnce(n, &names, &seen);
    }
    for (const onnx::GraphProto& g : attr.graphs()) {
      for (const std::string& n : FreeNames(g)) AddOnce(n, &names, &seen);
    }
  }
  return names;
}

std::string DimsToString(const ValueType& t) {
  if (!t.has_shape) return "";
  std::string s = "[";
  for (size_t i = 0; i < t.dims.size(); ++i) {
    if (i) s += ",";
    s += t.dims[i] < 0 ? "?" : std::to_string(t.dims[i]);
  }
  return s + "]";
}

}  // namespace

std::string ValueType::ToString() const {
  std::string tensor = std::string("tensor(") + DataTypeShortName(elem_type) + ")";
  switch (kind) {
    case Value::Kind::kNone: return "unknown";
    case Value::Kind::kTensor:
    case Value::Kind::kResident: return tensor + DimsToString(*this);
    case Value::Kind::kSequence: return "seq(" + tensor + ")";
    case Value::Kind::kOptional:
      return "optional(" + (inner_kind == Value::Kind::kSequence ? "seq(" + tensor + ")" : tensor) +
             ")";
  }
  return "unknown";
}

ValueType ValueTypeFromProto(const onnx::TypeProto& type) {
  ValueType t;
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& tt = type.tensor_type();
      t.kind = Value::Kind::kTensor;
      if (IsValidDataType(tt.elem_type())) t.elem_type = static_cast<DataType>(tt.elem_type());
      if (tt.has_shape()) {
        t.has_shape = true;
        for (const auto& d : tt.shape().dim()) {
          t.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
        }
      }
      break;
    }
    case onnx::TypeProto::kSequenceType: {
      ValueType inner = ValueTypeFromProto(type.sequence_type().elem_type());
      if (inner.kind != Value::Kind::kTensor) break;  // sequences of sequences/maps: unknown
      t.kind = Value::Kind::kSequence;
      t.elem_type = inner.elem_type;
      break;
    }
    case onnx::TypeProto::kOptionalType: {
      ValueType inner = ValueTypeFromProto(type.optional_type().elem_type());
      if (inner.kind != Value::Kind::kTensor && inner.kind != Value::Kind::kSequence) break;
      t.kind = Value::Kind::kOptional;
      t.inner_kind = inner.kind;
      t.elem_type = inner.elem_type;
      break;
    }
    default: break;
  }
  return t;
}

std::string NodeDisplayName(const onnx::NodeProto& node, int index) {
  return node.name().empty() ? node.op_type() + "#" + std::to_string(index) : node.name();
}

std::string NodeLabel(const onnx::NodeProto& node, int index) {
  if (node.name().empty()) return node.op_type() + " node #" + std::to_string(index);
  return node.op_type() + " node '" + node.name() + "'";
}

std::vector<std::string> FreeNames(const onnx::GraphProto& graph) {
  std::unordered_set<std::string> defined;
  for (const auto& in : graph.input()) defined.insert(in.name());
  for (const auto& init : graph.initializer()) defined.insert(init.name());
  for (const auto& init : graph.sparse_initializer()) defined.insert(init.values().name());
  for (const auto& node : graph.node()) {
    for (const auto& out : node.output()) defined.insert(out);
  }
  std::vector<std::string> free;
  std::unordered_set<std::string> seen;
  auto use = [&](const std::string& name) {
    if (!name.empty() && !defined.count(name)) AddOnce(name, &free, &seen);
  };
  for (const auto& node : graph.node()) {
    for (const auto& in : node.input()) use(in);
    for (const auto& name : SubgraphFreeNames(node)) use(name);
  }
  for (const auto& out : graph.output()) use(out.name());
  return free;
}

StatusOr<std::unique_ptr<const Graph>> Graph::Build(const onnx::GraphProto& proto,
                                                    const std::string& base_dir,
                                                    const Graph* parent) {
  std::unique_ptr<Graph> graph(new Graph(proto, parent));
  Status st = graph->Resolve(base_dir);
  if (!st.ok()) return st;
  return std::unique_ptr<const Graph>(std::move(graph));
}

const std::string& Graph::name() const { return proto_.name(); }

std::string Graph::Label() const {
  return proto_.name().empty() ? std::string("graph") : "graph '" + proto_.name() + "'";
}

const Tensor* Graph::ConstantInitializer(const std::string& name) const {
  auto it = initializers_.find(name);
  if (it == initializers_.end()) return nullptr;
  for (const auto& in : inputs_) {
    if (in == name) return nullptr;  // a default the caller may override
  }
  return &it->second;
}

bool Graph::Defines(const std::string& name) const {
  return DefinesLocally(name) || (parent_ != nullptr && parent_->Defines(name));
}

ValueType Graph::TypeOf(const std::string& name) const {
  auto it = types_.find(name);
  if (it != types_.end()) return it->second;
  if (!DefinesLocally(name) && parent_ != nullptr) return parent_->TypeOf(name);
  return ValueType();
}

Status Graph::Resolve(const std::string& base_dir) {
  if (proto_.sparse_initializer_size() > 0) {
    return Unimplemented(Label() + ": sparse initializers are not supported");
  }
  for (const auto& init : proto_.initializer()) {
    auto tensor = TensorFromProto(init, base_dir);
    if (!tensor.ok()) return tensor.status().WithContext(Label() + ": initializer");
    if (!initializers_.emplace(init.name(), std::move(tensor).value()).second) {
      return InvalidArgument(Label() + ": initializer '" + init.name() + "' is defined twice");
    }
  }
  ONNXGATE_RETURN_IF_ERROR(CollectDefinitions());
  ONNXGATE_RETURN_IF_ERROR(SortNodes());
  CollectTypes();
  return OkStatus();
}

Status Graph::CollectDefinitions() {
  for (const auto& in : proto_.input()) {
    if (in.name().empty()) return InvalidArgument(Label() + ": a graph input has no name");
    if (!defined_.insert(in.name()).second) {
      return InvalidArgument(Label() + ": graph input '" + in.name() + "' is listed twice");
    }
    inputs_.push_back(in.name());
    input_types_.push_back(ValueTypeFromProto(in.type()));
    if (!initializers_.count(in.name())) required_inputs_.push_back(in.name());
  }
  for (const auto& [name, tensor] : initializers_) defined_.insert(name);
  for (int i = 0; i < proto_.node_size(); ++i) {
    const onnx::NodeProto& node = proto_.node(i);
    for (const std::string& out : node.output()) {
      if (out.empty()) continue;
      if (!defined_.insert(out).second) {
        // Single static assignment: a second definition of one name is a broken graph.
        return InvalidArgument(Label() + ": " + NodeLabel(node, i) + " defines '" + out +
                               "', which is already defined earlier in the graph");
      }
      producer_[out] = i;
    }
  }
  return OkStatus();
}

Status Graph::SortNodes() {
  const int n = proto_.node_size();
  implicit_inputs_.resize(n);
  std::vector<std::vector<int>> consumers(n);
  std::vector<int> pending(n, 0);
  std::unordered_set<std::string> outer_seen;
  auto resolve = [&](int i, const std::string& name, bool implicit) -> Status {
    auto p = producer_.find(name);
    if (p != producer_.end()) {
      consumers[p->second].push_back(i);
      ++pending[i];
      return OkStatus();
    }
    if (DefinesLocally(name)) return OkStatus();
    if (parent_ != nullptr && parent_->Defines(name)) {
      AddOnce(name, &outer_scope_names_, &outer_seen);
      return OkStatus();
    }
    return InvalidArgument(Label() + ": " + NodeLabel(proto_.node(i), i) +
                           (implicit ? " has a subgraph that uses '" : " uses input '") + name +
                           "', which no node, graph input or initializer defines" +
                           (parent_ != nullptr ? " (nor any enclosing graph)" : ""));
  };
  for (int i = 0; i < n; ++i) {
    const onnx::NodeProto& node = proto_.node(i);
    for (const std::string& in : node.input()) {
      if (!in.empty()) ONNXGATE_RETURN_IF_ERROR(resolve(i, in, false));
    }
    implicit_inputs_[i] = SubgraphFreeNames(node);
    for (const std::string& name : implicit_inputs_[i])
      ONNXGATE_RETURN_IF_ERROR(resolve(i, name, true));
  }
  for (const auto& out : proto_.output()) {
    if (DefinesLocally(out.name())) continue;
    if (parent_ != nullptr && parent_->Defines(out.name())) {
      AddOnce(out.name(), &outer_scope_names_, &outer_seen);
      continue;
    }
    return InvalidArgument(Label() + ": graph output '" + out.name() +
                           "' is not produced by any node, graph input or initializer");
  }
  for (const auto& out : proto_.output()) outputs_.push_back(out.name());

  // Kahn's algorithm, always taking the lowest ready index so the order is stable.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order_.push_back(i);
    for (int c : consumers[i]) {
      if (--pending[c] == 0) ready.push(c);
    }
  }
  if (static_cast<int>(order_.size()) != n) {
    for (int i = 0; i < n; ++i) {
      if (pending[i] > 0) {
        return InvalidArgument(Label() + ": " + NodeLabel(proto_.node(i), i) +
                               " is part of a cycle (its inputs depend on its own outputs)");
      }
    }
  }
  return OkStatus();
}

void Graph::CollectTypes() {
  for (const auto& [name, tensor] : initializers_) {
    ValueType t;
    t.kind = Value::Kind::kTensor;
    t.elem_type = tensor.dtype();
    t.has_shape = true;
    t.dims = tensor.shape().dims();
    types_.emplace(name, t);
  }
  auto add = [&](const onnx::ValueInfoProto& vi) {
    ValueType t = ValueTypeFromProto(vi.type());
    if (!t.known()) return;
    auto it = types_.find(vi.name());
    if (it == types_.end()) {
      types_.emplace(vi.name(), t);
    } else if (it->second.elem_type == DataType::kUndefined) {
      it->second.elem_type = t.elem_type;  // an earlier entry knew the kind but not the type
    }
  };
  for (const auto& vi : proto_.input()) add(vi);
  for (const auto& vi : proto_.value_info()) add(vi);
  for (const auto& vi : proto_.output()) add(vi);
}

}  // namespace onnxgate
