// GraphIndex: producers, consumers, escaping names, constants and types of one GraphProto.
#include "runtime/optimizer/graph_index.h"

#include <onnx/onnx_pb.h>

#include "runtime/onnx/domain.h"
#include "runtime/proto/tensor_proto.h"

namespace onnxgate {

namespace {

const std::vector<int> kNoConsumers;

// The type of a TensorProto: its element type and dims.
ValueType TypeOfTensorProto(const onnx::TensorProto& t) {
  ValueType type;
  type.kind = Value::Kind::kTensor;
  if (IsValidDataType(t.data_type())) type.elem_type = static_cast<DataType>(t.data_type());
  type.has_shape = true;
  for (int64_t d : t.dims()) type.dims.push_back(d);
  return type;
}

void CollectNames(const onnx::GraphProto& g, std::unordered_set<std::string>* names) {
  for (const auto& v : g.input()) names->insert(v.name());
  for (const auto& v : g.output()) names->insert(v.name());
  for (const auto& v : g.value_info()) names->insert(v.name());
  for (const auto& t : g.initializer()) names->insert(t.name());
  for (const auto& node : g.node()) {
    for (const auto& n : node.input()) names->insert(n);
    for (const auto& n : node.output()) names->insert(n);
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) CollectNames(attr.g(), names);
      for (const auto& sub : attr.graphs()) CollectNames(sub, names);
    }
  }
}

}  // namespace

GraphIndex::GraphIndex(const onnx::GraphProto& graph, std::string base_dir)
    : graph_(graph), base_dir_(std::move(base_dir)) {
  for (const auto& in : graph.input()) graph_inputs_.insert(in.name());
  for (const auto& out : graph.output()) escaping_.insert(out.name());
  for (const auto& init : graph.initializer()) {
    if (!graph_inputs_.count(init.name())) constants_[init.name()] = &init;
    types_[init.name()] = TypeOfTensorProto(init);
  }
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    for (const std::string& in : node.input()) {
      if (!in.empty()) consumers_[in].push_back(i);
    }
    for (const std::string& out : node.output()) {
      if (!out.empty()) producer_[out] = i;
    }
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (attr.has_g()) {
        for (const std::string& n : FreeNames(attr.g())) escaping_.insert(n);
      }
      for (const onnx::GraphProto& g : attr.graphs()) {
        for (const std::string& n : FreeNames(g)) escaping_.insert(n);
      }
    }
    if (IsOnnxOp(node, "Constant") && node.output_size() == 1 && !node.output(0).empty()) {
      for (const onnx::AttributeProto& attr : node.attribute()) {
        if (attr.name() == "value" && attr.has_t()) {
          constants_[node.output(0)] = &attr.t();
          types_[node.output(0)] = TypeOfTensorProto(attr.t());
        }
      }
    }
  }
  auto add = [&](const onnx::ValueInfoProto& vi) {
    if (types_.count(vi.name())) return;  // a constant's own type is exact
    ValueType t = ValueTypeFromProto(vi.type());
    if (t.known()) types_.emplace(vi.name(), t);
  };
  for (const auto& vi : graph.input()) add(vi);
  for (const auto& vi : graph.value_info()) add(vi);
  for (const auto& vi : graph.output()) add(vi);
  CollectNames(graph, &all_names_);
}

int GraphIndex::Producer(const std::string& name) const {
  auto it = producer_.find(name);
  return it == producer_.end() ? -1 : it->second;
}

const std::vector<int>& GraphIndex::Consumers(const std::string& name) const {
  auto it = consumers_.find(name);
  return it == consumers_.end() ? kNoConsumers : it->second;
}

bool GraphIndex::Escapes(const std::string& name) const { return escaping_.count(name) > 0; }

int GraphIndex::SoleConsumer(const std::string& name) const {
  const std::vector<int>& uses = Consumers(name);
  if (uses.size() != 1 || Escapes(name)) return -1;
  return uses[0];
}

const onnx::TensorProto* GraphIndex::ConstantProto(const std::string& name) const {
  auto it = constants_.find(name);
  return it == constants_.end() ? nullptr : it->second;
}

std::optional<Tensor> GraphIndex::ConstantValue(const std::string& name) const {
  const onnx::TensorProto* proto = ConstantProto(name);
  if (proto == nullptr) return std::nullopt;
  StatusOr<Tensor> tensor = TensorFromProto(*proto, base_dir_);
  if (!tensor.ok()) return std::nullopt;
  return std::move(tensor).value();
}

ValueType GraphIndex::TypeOf(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() ? ValueType() : it->second;
}

std::string UniqueName(const std::string& base, std::unordered_set<std::string>* taken) {
  std::string name = base;
  for (int i = 1; taken->count(name); ++i) name = base + "_" + std::to_string(i);
  taken->insert(name);
  return name;
}

int64_t IntAttribute(const onnx::NodeProto& node, const std::string& name, int64_t fallback) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return attr.i();
  }
  return fallback;
}

float FloatAttribute(const onnx::NodeProto& node, const std::string& name, float fallback) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return attr.f();
  }
  return fallback;
}

std::optional<std::vector<int64_t>> IntsAttribute(const onnx::NodeProto& node,
                                                  const std::string& name) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return std::vector<int64_t>(attr.ints().begin(), attr.ints().end());
  }
  return std::nullopt;
}

bool HasAttribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return true;
  }
  return false;
}

bool HasSubgraph(const onnx::NodeProto& node) {
  for (const auto& attr : node.attribute()) {
    if (attr.has_g() || attr.graphs_size() > 0) return true;
  }
  return false;
}

std::vector<std::string> DefinedOutputs(const onnx::NodeProto& node) {
  std::vector<std::string> outs;
  for (const std::string& out : node.output()) {
    if (!out.empty()) outs.push_back(out);
  }
  return outs;
}

int64_t ValueBytes(const Tensor& tensor) {
  if (tensor.dtype() != DataType::kString) return static_cast<int64_t>(tensor.ByteSize());
  int64_t bytes = 0;
  const std::string* s = tensor.data<std::string>();
  for (int64_t i = 0; i < tensor.NumElements(); ++i) bytes += 8 + static_cast<int64_t>(s[i].size());
  return bytes;
}

}  // namespace onnxgate
