// Node naming and dead-node removal. ONNX ops have no side effects, so a node whose outputs
// nobody needs can go; graph inputs, graph outputs and names that subgraphs use are kept.
#include <unordered_set>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/optimizer/passes.h"

namespace onnxgate {

namespace {

void AddSubgraphUses(const onnx::NodeProto& node, std::unordered_set<std::string>* live) {
  for (const onnx::AttributeProto& attr : node.attribute()) {
    if (attr.has_g()) {
      for (const std::string& n : FreeNames(attr.g())) live->insert(n);
    }
    for (const onnx::GraphProto& g : attr.graphs()) {
      for (const std::string& n : FreeNames(g)) live->insert(n);
    }
  }
}

}  // namespace

void NameUnnamedNodes(onnx::GraphProto* graph) {
  for (int i = 0; i < graph->node_size(); ++i) {
    onnx::NodeProto* node = graph->mutable_node(i);
    if (node->name().empty()) node->set_name(NodeDisplayName(*node, i));
  }
}

bool RemoveDeadNodes(onnx::GraphProto* graph, OptimizationReport* report) {
  // Nodes are in topological order (ONNX's checker requires it), so one backward sweep finds
  // every node a graph output depends on.
  std::unordered_set<std::string> live;
  for (const auto& out : graph->output()) live.insert(out.name());
  std::vector<bool> keep(graph->node_size(), false);
  for (int i = graph->node_size() - 1; i >= 0; --i) {
    const onnx::NodeProto& node = graph->node(i);
    for (const std::string& out : node.output()) {
      if (!out.empty() && live.count(out)) keep[i] = true;
    }
    if (!keep[i]) continue;
    for (const std::string& in : node.input()) {
      if (!in.empty()) live.insert(in);
    }
    AddSubgraphUses(node, &live);
  }

  bool changed = false;
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int i = 0; i < graph->node_size(); ++i) {
    if (keep[i]) {
      nodes.Add()->Swap(graph->mutable_node(i));
    } else {
      report->removed.push_back(graph->node(i).name());
      changed = true;
    }
  }
  graph->mutable_node()->Swap(&nodes);

  std::unordered_set<std::string> inputs;
  for (const auto& in : graph->input()) inputs.insert(in.name());
  google::protobuf::RepeatedPtrField<onnx::TensorProto> initializers;
  for (auto& init : *graph->mutable_initializer()) {
    if (live.count(init.name()) || inputs.count(init.name())) {
      initializers.Add()->Swap(&init);
    } else {
      changed = true;
    }
  }
  graph->mutable_initializer()->Swap(&initializers);

  // value_info may only describe names the graph still defines.
  std::unordered_set<std::string> defined = inputs;
  for (const auto& init : graph->initializer()) defined.insert(init.name());
  for (const auto& node : graph->node()) {
    for (const std::string& out : node.output()) defined.insert(out);
  }
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> infos;
  for (auto& vi : *graph->mutable_value_info()) {
    if (defined.count(vi.name())) infos.Add()->Swap(&vi);
  }
  graph->mutable_value_info()->Swap(&infos);
  return changed;
}

}  // namespace onnxgate
