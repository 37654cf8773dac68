// Active op versions of a model, read through runtime/onnx's schema adapter.
#include "conformance/op_schemas.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace onnxgate {

namespace {

void CollectOps(const onnx::GraphProto& graph, const std::map<std::string, int>& opsets,
                std::vector<ActiveOp>& out, std::set<ActiveOp>& seen) {
  for (const onnx::NodeProto& node : graph.node()) {
    ActiveOp op;
    op.domain = NormalizeDomain(node.domain());
    op.op_type = node.op_type();
    auto it = opsets.find(op.domain);
    if (it != opsets.end()) {
      if (auto spec = OpSpec::Find(op.op_type, it->second, op.domain)) {
        op.since_version = spec->since_version();
      }
    }
    if (seen.insert(op).second) out.push_back(op);
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.has_g()) CollectOps(a.g(), opsets, out, seen);
      for (const onnx::GraphProto& g : a.graphs()) CollectOps(g, opsets, out, seen);
    }
  }
}

}  // namespace

std::string QualifiedOpName(const std::string& domain, const std::string& op_type) {
  return domain.empty() ? op_type : domain + "." + op_type;
}

std::vector<ActiveOp> ActiveOpsOfModel(const onnx::ModelProto& model) {
  std::map<std::string, int> opsets;
  for (const auto& o : model.opset_import())
    opsets[NormalizeDomain(o.domain())] = static_cast<int>(o.version());
  std::vector<ActiveOp> out;
  std::set<ActiveOp> seen;
  CollectOps(model.graph(), opsets, out, seen);
  return out;
}

}  // namespace onnxgate
