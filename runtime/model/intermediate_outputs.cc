// Exposing intermediate values as graph outputs (see intermediate_outputs.h).
#include "runtime/model/intermediate_outputs.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <set>

#include "runtime/model/type_inference.h"

namespace onnxgate {

namespace {

std::string NodeName(const onnx::NodeProto& node, int index) {
  return node.name().empty() ? node.op_type() + "#" + std::to_string(index) : node.name();
}

}  // namespace

StatusOr<std::vector<ExposedValue>> ExposeIntermediateOutputs(onnx::ModelProto& model) {
  const InferenceResult inferred = InferTypes(model, /*isolate=*/true);
  if (!inferred.ok) {
    return InvalidArgument("type inference failed, so intermediate values have no types: " +
                           inferred.detail);
  }
  onnx::GraphProto& graph = *model.mutable_graph();
  std::set<std::string> taken;
  for (const onnx::ValueInfoProto& v : graph.input()) taken.insert(v.name());
  for (const onnx::ValueInfoProto& v : graph.output()) taken.insert(v.name());
  for (const onnx::TensorProto& t : graph.initializer()) taken.insert(t.name());
  std::map<std::string, const onnx::ValueInfoProto*> typed;
  for (const onnx::ValueInfoProto& v : graph.value_info()) {
    if (v.type().has_tensor_type() &&
        v.type().tensor_type().elem_type() != onnx::TensorProto::UNDEFINED) {
      typed[v.name()] = &v;
    }
  }
  std::vector<ExposedValue> exposed;
  std::vector<onnx::ValueInfoProto> added;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    const std::string node_name = NodeName(node, i);
    for (const std::string& output : node.output()) {
      if (output.empty() || taken.count(output)) continue;
      auto it = typed.find(output);
      if (it == typed.end()) continue;
      taken.insert(output);
      added.push_back(*it->second);
      exposed.push_back({output, node_name, node.op_type(), node.domain(), i});
    }
  }
  for (onnx::ValueInfoProto& v : added) *graph.add_output() = std::move(v);
  return exposed;
}

std::vector<ExposedValue> GraphOutputProducers(const onnx::ModelProto& model) {
  const onnx::GraphProto& graph = model.graph();
  std::set<std::string> outputs;
  for (const onnx::ValueInfoProto& v : graph.output()) outputs.insert(v.name());
  std::vector<ExposedValue> producers;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    for (const std::string& output : node.output()) {
      if (!output.empty() && outputs.erase(output)) {
        producers.push_back({output, NodeName(node, i), node.op_type(), node.domain(), i});
      }
    }
  }
  return producers;
}

}  // namespace onnxgate
