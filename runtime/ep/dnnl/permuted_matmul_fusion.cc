// MatMul + Transposes (+ scale) claims of the dnnl provider.
#include "runtime/ep/dnnl/permuted_matmul_fusion.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "runtime/ep/dnnl/claim_common.h"
#include "runtime/ep/dnnl/kernels/permuted_matmul.h"

namespace onnxgate::dnnl_ep {

namespace {

// Whether `name` is float32 of a rank of at least 2 known at load.
bool IsFloatMatrices(const SubgraphOffer& offer, const std::string& name) {
  if (offer.graph->ElementType(name) != DataType::kFloat) return false;
  const ValueType type = offer.graph->TypeOf(name);
  return type.has_shape && type.dims.size() >= 2;
}

// The Transpose at `place` of `offer`: its perm attribute (empty: the default, reversed axes).
StatusOr<std::vector<int64_t>> PermOf(const SubgraphOffer& offer, size_t place) {
  const KernelInfo info = OfferedNodeInfo(offer, place);
  if (!info.has_attribute("perm")) return std::vector<int64_t>();
  return info.GetInts("perm");
}

// A one-input, one-output Transpose at `place` whose input is float32 of rank >= 2 at load.
bool IsPlainTranspose(const SubgraphOffer& offer, size_t place) {
  const onnx::NodeProto& node = offer.graph->proto().node(offer.nodes[place]);
  return IsOnnxOp(node, "Transpose") && node.input_size() == 1 && node.output_size() == 1 &&
         IsFloatMatrices(offer, node.input(0));
}

// The value of a one-element float constant of rank 0 or 1 (multiplying by it keeps Y's shape),
// finite; nothing otherwise.
std::optional<float> ScaleConstant(const Tensor* t) {
  if (t == nullptr || t->dtype() != DataType::kFloat || t->NumElements() != 1 ||
      t->shape().rank() > 1) {
    return std::nullopt;
  }
  const float value = t->data<float>()[0];
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

StatusOr<std::vector<SubgraphClaim>> ClaimPermutedMatMuls(const SubgraphOffer& offer,
                                                          std::shared_ptr<const DnnlContext> dnnl) {
  const onnx::GraphProto& graph = offer.graph->proto();
  std::vector<bool> taken(offer.nodes.size(), false);
  std::vector<SubgraphClaim> claims;
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    const onnx::NodeProto& matmul = graph.node(offer.nodes[k]);
    if (!IsOnnxOp(matmul, "MatMul") || taken[k] || matmul.input_size() != 2 ||
        matmul.output_size() != 1 || !IsFloatMatrices(offer, matmul.input(0)) ||
        !IsFloatMatrices(offer, matmul.input(1))) {
      continue;
    }
    MatMulPermutations permutations;
    std::vector<size_t> places = {k};
    std::vector<std::string> inputs = {matmul.input(0), matmul.input(1)};
    // An operand written by a Transpose that this MatMul alone reads, once.
    for (int i = 0; i < 2; ++i) {
      const std::string& operand = matmul.input(i);
      if (offer.readers(operand) != 1) continue;
      const std::optional<size_t> j = OfferedWriter(offer, operand, k, taken);
      if (!j || !IsPlainTranspose(offer, *j)) continue;
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> perm, PermOf(offer, *j));
      (i == 0 ? permutations.a_transposed : permutations.b_transposed) = true;
      (i == 0 ? permutations.a_perm : permutations.b_perm) = std::move(perm);
      inputs[i] = graph.node(offer.nodes[*j]).input(0);
      places.push_back(*j);
    }
    // The product scaled by a constant, then transposed, each step read by the next alone.
    std::string y = matmul.output(0);
    size_t last = k;
    if (const std::optional<size_t> j = SoleOfferedReader(offer, y, last, taken)) {
      const onnx::NodeProto& mul = graph.node(offer.nodes[*j]);
      if (IsOnnxOp(mul, "Mul") && offer.since_versions[*j] >= 7 && mul.input_size() == 2 &&
          mul.output_size() == 1) {
        const std::string& other = mul.input(mul.input(0) == y ? 1 : 0);
        if (const std::optional<float> scale = ScaleConstant(offer.constant(other))) {
          permutations.scale = scale;
          y = mul.output(0);
          last = *j;
          places.push_back(*j);
        }
      }
    }
    if (const std::optional<size_t> j = SoleOfferedReader(offer, y, last, taken)) {
      const onnx::NodeProto& transpose = graph.node(offer.nodes[*j]);
      if (IsOnnxOp(transpose, "Transpose") && transpose.input_size() == 1 &&
          transpose.output_size() == 1) {
        ONNXGATE_ASSIGN_OR_RETURN(permutations.y_perm, PermOf(offer, *j));
        permutations.y_transposed = true;
        y = transpose.output(0);
        places.push_back(*j);
      }
    }
    if (places.size() == 1) continue;         // nothing around this MatMul to take
    std::sort(places.begin(), places.end());  // claim.nodes go in execution order
    auto kernel = PermutedMatMulKernel::Create(dnnl, std::move(permutations));
    if (!kernel.ok()) return kernel.status();
    SubgraphClaim claim;
    claim.name = SpanName(offer, places);
    for (size_t place : places) {
      claim.nodes.push_back(offer.nodes[place]);
      taken[place] = true;
    }
    claim.inputs = std::move(inputs);
    claim.outputs = {y};
    claim.kernel = std::move(kernel).value();
    claims.push_back(std::move(claim));
  }
  return claims;
}

}  // namespace onnxgate::dnnl_ep
