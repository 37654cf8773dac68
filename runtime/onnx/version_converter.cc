// ConvertOpset over onnx::version_conversion::ConvertVersion, and the nodes that block it, found
// from the converter's own table of adapters.
#include "runtime/onnx/version_converter.h"

#include <onnx/onnx_pb.h>
#include <onnx/version_converter/convert.h>

#include <algorithm>
#include <string>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

// The adapters ONNX's default converter registers, and the op versions it knows: the converter's
// own tables, so the blockers found here are the steps it would fail at.
class AdapterTable : public onnx::version_conversion::DefaultVersionConverter {
 public:
  static const AdapterTable& Get() {
    static const AdapterTable table;
    return table;
  }

  // The opsets at which `op_type`'s default-domain versions start, ascending; empty for an op
  // ONNX does not know.
  std::vector<int> SinceVersions(const std::string& op_type) const {
    std::vector<int> versions;
    auto op = all_schemas.find(op_type);
    if (op == all_schemas.end()) return versions;
    auto domain = op->second.find("");
    if (domain == op->second.end()) return versions;
    for (const auto& [since, schema] : domain->second) versions.push_back(static_cast<int>(since));
    return versions;
  }

  bool HasAdapter(const std::string& op_type, int from, int to) const {
    auto op = adapters.find(op_type);
    if (op == adapters.end()) return false;
    auto initial = op->second.find("$" + std::to_string(from));
    return initial != op->second.end() && initial->second.count("$" + std::to_string(to)) > 0;
  }
};

// The first step of the walk from `from` to `to` that `op_type` (versions `since`) cannot take,
// as the converter walks: down, a step from an opset where a version starts; up, a step into one.
// Fills from_opset and to_opset; false when every step has an adapter.
bool FindBlockedStep(const AdapterTable& table, const std::string& op_type,
                     const std::vector<int>& since, int from, int to, ConversionBlocker* b) {
  const int step = to > from ? 1 : -1;
  auto starts_at = [&since](int v) { return std::count(since.begin(), since.end(), v) > 0; };
  for (int v = from; v != to; v += step) {
    const bool changes = step < 0 ? starts_at(v) : starts_at(v + step);
    if (!changes) continue;
    const bool no_previous = step < 0 && v == since.front();
    if (no_previous || !table.HasAdapter(op_type, v, v + step)) {
      b->from_opset = v;
      b->to_opset = v + step;
      return true;
    }
  }
  return false;
}

bool IsDefault(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

void CollectBlockers(const AdapterTable& table, const onnx::GraphProto& graph, int from, int to,
                     std::vector<ConversionBlocker>* out) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    for (const onnx::AttributeProto& a : node.attribute()) {
      if (a.has_g()) CollectBlockers(table, a.g(), from, to, out);
      for (const onnx::GraphProto& g : a.graphs()) CollectBlockers(table, g, from, to, out);
    }
    if (!IsDefault(node.domain())) continue;
    ConversionBlocker b;
    b.node = node.name().empty() ? node.op_type() + "#" + std::to_string(i) : node.name();
    b.op_type = node.op_type();
    const std::vector<int> since = table.SinceVersions(node.op_type());
    if (since.empty()) {
      out->push_back(std::move(b));
      continue;
    }
    b.first_opset = since.front();
    for (int v : since) {
      if (v <= from) b.op_version = v;
    }
    if (FindBlockedStep(table, node.op_type(), since, from, to, &b)) out->push_back(std::move(b));
  }
}

}  // namespace

std::string ConversionBlocker::Describe() const {
  const std::string op =
      op_version > 0 ? op_type + " version " + std::to_string(op_version) : op_type;
  const std::string head = "node '" + node + "' (" + op + ")";
  if (first_opset == 0) return head + ": ONNX knows no op " + op_type + " in the default domain";
  if (to_opset < first_opset) {
    return head + ": " + op_type + " first exists in opset " + std::to_string(first_opset) +
           ", so no earlier opset has it";
  }
  return head + ": ONNX's converter has no adapter for " + op_type + " from opset " +
         std::to_string(from_opset) + " to " + std::to_string(to_opset);
}

std::vector<ConversionBlocker> ConversionBlockers(const onnx::ModelProto& model, int target_opset) {
  int from = -1;
  for (const auto& o : model.opset_import()) {
    if (IsDefault(o.domain())) from = static_cast<int>(o.version());
  }
  std::vector<ConversionBlocker> blockers;
  if (from < 1 || from == target_opset) return blockers;
  CollectBlockers(AdapterTable::Get(), model.graph(), from, target_opset, &blockers);
  return blockers;
}

StatusOr<onnx::ModelProto> ConvertOpset(const onnx::ModelProto& model, int target_opset) {
  int from = -1;
  for (const auto& o : model.opset_import()) {
    if (NormalizeDomain(o.domain()).empty()) from = static_cast<int>(o.version());
  }
  const std::string what = "converting the model from opset " + std::to_string(from) +
                           " to opset " + std::to_string(target_opset);
  if (target_opset < 1 || target_opset > MaxOpset("")) {
    return InvalidArgument(what + ": ONNX " + OnnxReleaseVersion() + " knows opsets 1 to " +
                           std::to_string(MaxOpset("")));
  }
  const std::vector<ConversionBlocker> blockers = ConversionBlockers(model, target_opset);
  if (!blockers.empty()) {
    std::string lines;
    for (const ConversionBlocker& b : blockers)
      lines += (lines.empty() ? " " : "; ") + b.Describe();
    return InvalidArgument(what + ": " + std::to_string(blockers.size()) +
                           (blockers.size() == 1 ? " node blocks it:" : " nodes block it:") +
                           lines);
  }
  try {
    return onnx::version_conversion::ConvertVersion(model, target_opset);
  } catch (const std::exception& e) {
    return InvalidArgument(what + ": " + e.what());
  }
}

}  // namespace onnxgate
