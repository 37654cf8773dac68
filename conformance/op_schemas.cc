// Operator version history and active versions, read from libonnx's schema registry.
#include "conformance/op_schemas.h"

#include <onnx/defs/parser.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "runtime/base/atomic_file.h"

namespace onnxgate {

namespace {

int MaxOpsetOf(const std::string& domain) {
  if (domain.empty()) return kMaxDefaultOpset;
  if (domain == "ai.onnx.ml") return kMaxMlOpset;
  return -1;
}

std::string Normalize(const std::string& domain) { return domain == "ai.onnx" ? "" : domain; }

void CollectOps(const onnx::GraphProto& graph, const std::map<std::string, int>& opsets,
                std::vector<ActiveOp>& out, std::set<ActiveOp>& seen) {
  for (const onnx::NodeProto& node : graph.node()) {
    ActiveOp op;
    op.domain = Normalize(node.domain());
    op.op_type = node.op_type();
    auto it = opsets.find(op.domain);
    if (it != opsets.end()) {
      const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op.op_type, it->second, op.domain);
      if (schema != nullptr) op.since_version = schema->SinceVersion();
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

std::vector<OperatorVersions> AllOperators() {
  std::map<std::pair<std::string, std::string>, OperatorVersions> ops;
  for (const onnx::OpSchema& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    std::string domain = Normalize(s.domain());
    int max = MaxOpsetOf(domain);
    if (max < 0 || s.SinceVersion() > max) continue;
    OperatorVersions& v = ops[{domain, s.Name()}];
    v.domain = domain;
    v.op_type = s.Name();
    v.since_versions.push_back(s.SinceVersion());
    if (s.SinceVersion() == *std::max_element(v.since_versions.begin(), v.since_versions.end())) {
      v.deprecated = s.Deprecated();
    }
  }
  std::vector<OperatorVersions> out;
  for (auto& [key, v] : ops) {
    std::sort(v.since_versions.begin(), v.since_versions.end());
    v.since_versions.erase(std::unique(v.since_versions.begin(), v.since_versions.end()),
                           v.since_versions.end());
    out.push_back(std::move(v));
  }
  return out;
}

StatusOr<std::vector<ActiveOp>> ActiveOpsOfModel(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  onnx::ModelProto model;
  bool text = path.size() >= 8 && path.compare(path.size() - 8, 8, ".onnxtxt") == 0;
  if (text) {
    onnx::Status st = onnx::OnnxParser::Parse(model, bytes.c_str());
    if (!st.IsOK()) return InvalidArgument(path + ": not valid ONNX text format: " + st.ErrorMessage());
  } else if (!model.ParseFromString(bytes)) {
    return DataLoss(path + ": not a valid ONNX model (protobuf parse failed)");
  }
  std::map<std::string, int> opsets;
  for (const auto& o : model.opset_import()) opsets[Normalize(o.domain())] = static_cast<int>(o.version());
  std::vector<ActiveOp> out;
  std::set<ActiveOp> seen;
  CollectOps(model.graph(), opsets, out, seen);
  return out;
}

}  // namespace onnxgate
