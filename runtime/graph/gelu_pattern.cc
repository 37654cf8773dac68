// The written-out Gelu matcher (see gelu_pattern.h).
#include "runtime/graph/gelu_pattern.h"

#include <onnx/onnx_pb.h>

#include <cmath>

#include "runtime/onnx/op_spec.h"

namespace onnxgate {

namespace {

// The node at `index` if it is `op` in the default domain, else null.
const onnx::NodeProto* NodeIf(const onnx::GraphProto& graph, int index, const char* op) {
  if (index < 0) return nullptr;
  const onnx::NodeProto& node = graph.node(index);
  return node.op_type() == op && NormalizeDomain(node.domain()).empty() ? &node : nullptr;
}

// The other input of a two-input node, given one of them; "" when `name` is not an input.
std::string OtherInput(const onnx::NodeProto& node, const std::string& name) {
  if (node.input_size() != 2) return "";
  if (node.input(0) == name) return node.input(1);
  if (node.input(1) == name) return node.input(0);
  return "";
}

bool Near(double value, double target) {
  return std::fabs(value - target) <= 1e-6 * std::fabs(target);
}

int64_t RankOf(const GeluLookup& lookup, const std::string& name) {
  const ValueType t = lookup.type_of(name);
  return t.has_shape ? static_cast<int64_t>(t.dims.size()) : 0;
}

}  // namespace

std::optional<GeluMatch> MatchWrittenOutGelu(const onnx::GraphProto& graph, int erf_index,
                                             const GeluLookup& lookup) {
  const onnx::NodeProto* erf = NodeIf(graph, erf_index, "Erf");
  if (erf == nullptr || erf->input_size() != 1 || erf->output_size() != 1) return std::nullopt;
  const int scaled_index = lookup.producer(erf->input(0));
  if (scaled_index < 0 || lookup.sole_reader(erf->input(0)) != erf_index) return std::nullopt;
  const onnx::NodeProto& scaled = graph.node(scaled_index);
  if (scaled.input_size() != 2) return std::nullopt;
  // x is the non-constant operand; the constants may be no wider than x.
  std::string x;
  for (int side = 0; side < 2 && x.empty(); ++side) {
    const std::string& cand = scaled.input(side);
    const std::string& other = scaled.input(1 - side);
    if (lookup.is_constant(cand)) continue;
    const int64_t rank = RankOf(lookup, cand);
    std::optional<double> factor;
    if (NodeIf(graph, scaled_index, "Div") != nullptr && side == 0) {
      factor = lookup.scalar(other, rank);
      if (factor && Near(*factor, std::sqrt(2.0))) x = cand;
    } else if (NodeIf(graph, scaled_index, "Mul") != nullptr) {
      factor = lookup.scalar(other, rank);
      if (factor && Near(*factor, 1.0 / std::sqrt(2.0))) x = cand;
    }
  }
  if (x.empty()) return std::nullopt;
  const int64_t rank = RankOf(lookup, x);
  auto is_constant = [&](const std::string& name, double value) {
    std::optional<double> v = lookup.scalar(name, rank);
    return v && *v == value;
  };

  // 1 + erf: Add, or Sum of the two (as ONNX's own function body for Gelu writes it).
  const int one_index = lookup.sole_reader(erf->output(0));
  const onnx::NodeProto* plus_one = NodeIf(graph, one_index, "Add");
  if (plus_one == nullptr) plus_one = NodeIf(graph, one_index, "Sum");
  if (plus_one == nullptr || !is_constant(OtherInput(*plus_one, erf->output(0)), 1.0)) {
    return std::nullopt;
  }
  const std::string& a = plus_one->output(0);  // 1 + erf(x / sqrt 2)
  const int m1_index = lookup.sole_reader(a);
  const onnx::NodeProto* m1 = NodeIf(graph, m1_index, "Mul");
  if (m1 == nullptr) return std::nullopt;
  const std::string o = OtherInput(*m1, a);
  if (o.empty()) return std::nullopt;
  GeluMatch match;
  match.x = x;
  if (o == x || is_constant(o, 0.5)) {
    // (x * a) * 0.5, or (a * 0.5) * x
    const int m2_index = lookup.sole_reader(m1->output(0));
    const onnx::NodeProto* m2 = NodeIf(graph, m2_index, "Mul");
    if (m2 == nullptr) return std::nullopt;
    const std::string last = OtherInput(*m2, m1->output(0));
    if (o == x ? !is_constant(last, 0.5) : last != x) return std::nullopt;
    match.nodes = {scaled_index, erf_index, one_index, m1_index, m2_index};
    match.y = m2->output(0);
  } else {
    // (x * 0.5) * a
    const int half_index = lookup.producer(o);
    const onnx::NodeProto* half = NodeIf(graph, half_index, "Mul");
    if (half == nullptr || lookup.sole_reader(o) != m1_index) return std::nullopt;
    const std::string h = OtherInput(*half, x);
    if (h.empty() || !is_constant(h, 0.5)) return std::nullopt;
    match.nodes = {scaled_index, erf_index, one_index, half_index, m1_index};
    match.y = m1->output(0);
  }
  return match;
}

}  // namespace onnxgate
