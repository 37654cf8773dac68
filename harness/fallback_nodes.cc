// Fallback nodes from placements, and the shape-only rule over ONNX's types.
#include "harness/fallback_nodes.h"

#include <onnx/onnx_pb.h>

#include <map>

#include "runtime/model/type_inference.h"

namespace onnxgate {

namespace {

const std::set<std::string>& AlwaysShapeOnly() {
  static const std::set<std::string> ops = {"Shape", "Size", "Constant"};
  return ops;
}

const std::set<std::string>& ShapeOnlyWhenInt64() {
  static const std::set<std::string> ops = {
      "ConstantOfShape", "Unsqueeze", "Squeeze", "Concat", "Gather",
      "Slice",           "Cast",      "Reshape", "Range"};
  return ops;
}

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::string DisplayName(const onnx::NodeProto& node, int index) {
  return node.name().empty() ? node.op_type() + "#" + std::to_string(index) : node.name();
}

// The element type of every value of the main graph whose tensor type is known.
std::map<std::string, int32_t> ElementTypes(const onnx::GraphProto& graph) {
  std::map<std::string, int32_t> types;
  auto add = [&](const onnx::ValueInfoProto& v) {
    if (v.type().has_tensor_type() && v.type().tensor_type().elem_type() != 0) {
      types[v.name()] = v.type().tensor_type().elem_type();
    }
  };
  for (const auto& v : graph.input()) add(v);
  for (const auto& v : graph.output()) add(v);
  for (const auto& v : graph.value_info()) add(v);
  for (const auto& t : graph.initializer()) types[t.name()] = t.data_type();
  return types;
}

bool IsIntegerTensor(int32_t data_type) {
  return data_type == onnx::TensorProto::INT64 || data_type == onnx::TensorProto::INT32;
}

// What type inference needs of `model`, without the bytes of its non-integer initializers
// (weights): their types and shapes are all it reads of them, and a model's weights can be
// gigabytes. Integer initializers keep their values, which shape inference reads (Reshape's
// shape, Slice's starts).
onnx::ModelProto TypesOnlyCopy(const onnx::ModelProto& model) {
  onnx::ModelProto copy;
  copy.set_ir_version(model.ir_version());
  *copy.mutable_opset_import() = model.opset_import();
  *copy.mutable_functions() = model.functions();
  const onnx::GraphProto& graph = model.graph();
  onnx::GraphProto* g = copy.mutable_graph();
  g->set_name(graph.name());
  *g->mutable_node() = graph.node();
  *g->mutable_input() = graph.input();
  *g->mutable_output() = graph.output();
  *g->mutable_value_info() = graph.value_info();
  for (const onnx::TensorProto& t : graph.initializer()) {
    onnx::TensorProto* kept = g->add_initializer();
    if (IsIntegerTensor(t.data_type())) {
      *kept = t;
      continue;
    }
    kept->set_name(t.name());
    kept->set_data_type(t.data_type());
    *kept->mutable_dims() = t.dims();
  }
  return copy;
}

}  // namespace

bool IsShapeOnlyNode(const std::string& domain, const std::string& op_type, bool int64_outputs) {
  if (!IsDefaultDomain(domain)) return false;
  if (AlwaysShapeOnly().count(op_type) > 0) return true;
  return int64_outputs && ShapeOnlyWhenInt64().count(op_type) > 0;
}

bool HasTypeDependentNodes(const onnx::ModelProto& model) {
  for (const onnx::NodeProto& node : model.graph().node()) {
    if (IsDefaultDomain(node.domain()) && ShapeOnlyWhenInt64().count(node.op_type()) > 0) {
      return true;
    }
  }
  return false;
}

int NodesToPlace(const onnx::ModelProto& model, int optimization_level) {
  const onnx::GraphProto& graph = model.graph();
  if (optimization_level == 0) return graph.node_size();
  std::set<std::string> variable;  // values that depend on a graph input
  for (const auto& input : graph.input()) variable.insert(input.name());
  for (const auto& initializer : graph.initializer()) variable.erase(initializer.name());
  int count = 0;
  for (const onnx::NodeProto& node : graph.node()) {
    bool depends = false;
    for (const std::string& in : node.input()) depends = depends || variable.count(in) > 0;
    for (const onnx::AttributeProto& a : node.attribute()) {
      depends = depends || a.has_g() || a.graphs_size() > 0;
    }
    if (!depends) continue;
    ++count;
    for (const std::string& out : node.output()) variable.insert(out);
  }
  return count;
}

std::set<std::string> NodesWithInt64Outputs(const onnx::ModelProto& model) {
  onnx::ModelProto typed = TypesOnlyCopy(model);
  (void)InferTypes(typed, /*isolate=*/true);  // what stays unknown counts as compute
  const std::map<std::string, int32_t> types = ElementTypes(typed.graph());
  std::set<std::string> nodes;
  for (int i = 0; i < typed.graph().node_size(); ++i) {
    const onnx::NodeProto& node = typed.graph().node(i);
    bool all_int64 = node.output_size() > 0;
    for (const std::string& out : node.output()) {
      if (out.empty()) continue;
      auto it = types.find(out);
      all_int64 = all_int64 && it != types.end() && it->second == onnx::TensorProto::INT64;
    }
    if (all_int64) nodes.insert(DisplayName(node, i));
  }
  return nodes;
}

std::vector<FallbackRecord> FallbackNodes(const std::vector<NodePlacement>& placements,
                                          const std::string& first_provider,
                                          const std::set<std::string>* int64_nodes) {
  std::vector<FallbackRecord> out;
  for (const NodePlacement& p : placements) {
    if (p.provider == first_provider) continue;
    const bool int64 = int64_nodes != nullptr && int64_nodes->count(p.node_name) > 0;
    out.push_back(
        {p.node_name, p.op_type, p.provider, IsShapeOnlyNode(p.domain, p.op_type, int64)});
  }
  return out;
}

}  // namespace onnxgate
