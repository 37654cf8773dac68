// Exposing intermediate values as graph outputs (see intermediate_outputs.h).
#include "runtime/model/intermediate_outputs.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <set>

#include "runtime/model/type_inference.h"

namespace onnxgate {

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
    const std::string node_name =
        node.name().empty() ? node.op_type() + "#" + std::to_string(i) : node.name();
    for (const std::string& output : node.output()) {
      if (output.empty() || taken.count(output)) continue;
      auto it = typed.find(output);
      if (it == typed.end()) continue;
      taken.insert(output);
      added.push_back(*it->second);
      exposed.push_back({output, node_name, node.op_type()});
    }
  }
  for (onnx::ValueInfoProto& v : added) *graph.add_output() = std::move(v);
  return exposed;
}

}  // namespace onnxgate
