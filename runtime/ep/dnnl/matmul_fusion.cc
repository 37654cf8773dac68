// MatMul + bias (+ Gelu) claims of the dnnl provider.
#include "runtime/ep/dnnl/matmul_fusion.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <optional>
#include <string>

#include "runtime/ep/dnnl/claim_common.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/ep/dnnl/kernels/matmul.h"
#include "runtime/graph/gelu_pattern.h"

namespace onnxgate::dnnl_ep {

namespace {

// The dims of `name` known at load: a constant's, else its type's; nothing when its rank is not.
std::optional<std::vector<int64_t>> DimsAtLoad(const SubgraphOffer& offer,
                                               const std::string& name) {
  if (const Tensor* t = offer.constant(name)) return t->shape().dims();
  const ValueType type = offer.graph->TypeOf(name);
  if (!type.has_shape) return std::nullopt;
  return type.dims;
}

// What the bias must fit: the rank of MatMul's Y and its column count N.
struct ProductShape {
  size_t rank = 0;
  int64_t columns = 0;
};

// Y's shape as far as the bias needs it, when A and B are float32 of rank >= 2 at load and N is
// known; nothing otherwise.
std::optional<ProductShape> ProductShapeAtLoad(const SubgraphOffer& offer,
                                               const onnx::NodeProto& matmul) {
  if (matmul.input_size() != 2 || matmul.output_size() != 1) return std::nullopt;
  for (const std::string& in : matmul.input()) {
    if (offer.graph->ElementType(in) != DataType::kFloat) return std::nullopt;
  }
  const std::optional<std::vector<int64_t>> a = DimsAtLoad(offer, matmul.input(0));
  const std::optional<std::vector<int64_t>> b = DimsAtLoad(offer, matmul.input(1));
  if (!a || !b || a->size() < 2 || b->size() < 2 || b->back() < 0) return std::nullopt;
  return ProductShape{std::max(a->size(), b->size()), b->back()};
}

// Whether `bias` is a float32 constant [N] or [1, ..., 1, N] of no higher rank than Y: adding it
// broadcasts along Y's last axis alone and leaves Y's shape as it is.
bool IsBiasAlongLastAxis(const Tensor* bias, const ProductShape& y) {
  if (bias == nullptr || bias->dtype() != DataType::kFloat) return false;
  const std::vector<int64_t>& d = bias->shape().dims();
  if (d.empty() || d.size() > y.rank || d.back() != y.columns) return false;
  return std::all_of(d.begin(), d.end() - 1, [](int64_t dim) { return dim == 1; });
}

// A Gelu that alone reads the biased sum: its places in the offer, its output and its post-op.
struct GeluAfterBias {
  std::vector<size_t> places;
  std::string y;
  std::vector<EltwiseStep> steps;
};

// Gelu-20 reading `z` alone, at an untaken place after `after`.
StatusOr<std::optional<GeluAfterBias>> GeluOpReading(const SubgraphOffer& offer,
                                                     const std::string& z, size_t after,
                                                     const std::vector<bool>& taken) {
  using Found = std::optional<GeluAfterBias>;
  const std::optional<size_t> j = SoleOfferedReader(offer, z, after, taken);
  if (!j) return Found();
  const onnx::NodeProto& gelu = offer.graph->proto().node(offer.nodes[*j]);
  if (!IsOnnxOp(gelu, "Gelu") || gelu.input(0) != z || gelu.output_size() != 1) return Found();
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<EltwiseStep> steps,
                            EltwiseStepsOf(OfferedNodeInfo(offer, *j), EltwiseOp::kGelu));
  return Found(GeluAfterBias{{*j}, gelu.output(0), std::move(steps)});
}

// The written-out Gelu of x = `z`: its nodes offered and untaken, z read by them alone.
std::optional<GeluAfterBias> WrittenOutGeluOf(const SubgraphOffer& offer,
                                              const OfferGeluLookup& view, const GeluLookup& lookup,
                                              const std::string& z,
                                              const std::vector<bool>& taken) {
  const onnx::GraphProto& graph = offer.graph->proto();
  for (size_t j = 0; j < offer.nodes.size(); ++j) {
    // The scaling x / sqrt 2 reads z, and the Erf reads the scaling alone.
    const onnx::NodeProto& scaled = graph.node(offer.nodes[j]);
    if (scaled.output_size() != 1 ||
        std::find(scaled.input().begin(), scaled.input().end(), z) == scaled.input().end()) {
      continue;
    }
    const int erf = lookup.sole_reader(scaled.output(0));
    if (erf < 0) continue;
    std::optional<GeluMatch> match = MatchWrittenOutGelu(graph, erf, lookup);
    if (!match || match->x != z) continue;
    std::optional<std::vector<size_t>> places = view.UntakenPlaces(match->nodes, taken);
    if (!places) return std::nullopt;  // runs elsewhere
    int reads_of_z = 0;
    for (int node : match->nodes) {
      const auto& inputs = graph.node(node).input();
      reads_of_z += static_cast<int>(std::count(inputs.begin(), inputs.end(), z));
    }
    if (reads_of_z != offer.readers(z)) return std::nullopt;  // z is read outside the Gelu too
    return GeluAfterBias{std::move(*places), match->y, {{dnnl::algorithm::eltwise_gelu_erf}}};
  }
  return std::nullopt;
}

}  // namespace

StatusOr<std::vector<SubgraphClaim>> ClaimMatMulBiases(const SubgraphOffer& offer,
                                                       std::shared_ptr<const DnnlContext> dnnl) {
  const onnx::GraphProto& graph = offer.graph->proto();
  const OfferGeluLookup view(offer);
  const GeluLookup lookup = view.Get();
  std::vector<bool> taken(offer.nodes.size(), false);
  std::vector<SubgraphClaim> claims;
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    const onnx::NodeProto& matmul = graph.node(offer.nodes[k]);
    if (!IsOnnxOp(matmul, "MatMul") || taken[k]) continue;
    const std::optional<ProductShape> product = ProductShapeAtLoad(offer, matmul);
    if (!product) continue;
    const std::optional<size_t> j = SoleOfferedReader(offer, matmul.output(0), k, taken);
    if (!j) continue;
    const onnx::NodeProto& add = graph.node(offer.nodes[*j]);
    if (!IsOnnxOp(add, "Add") || add.input_size() != 2 || add.output_size() != 1) continue;
    const std::string& bias = add.input(add.input(0) == matmul.output(0) ? 1 : 0);
    if (!IsBiasAlongLastAxis(offer.constant(bias), *product)) continue;

    std::vector<size_t> places = {k, *j};
    std::string y = add.output(0);
    MatMulEpilogue epilogue;
    epilogue.bias = true;
    ONNXGATE_ASSIGN_OR_RETURN(std::optional<GeluAfterBias> gelu,
                              GeluOpReading(offer, y, *j, taken));
    if (!gelu) gelu = WrittenOutGeluOf(offer, view, lookup, y, taken);
    if (gelu) {
      places.insert(places.end(), gelu->places.begin(), gelu->places.end());
      epilogue.activation = std::move(gelu->steps);
      y = gelu->y;
    }
    std::sort(places.begin(), places.end());  // claim.nodes go in execution order
    auto kernel = MatMulKernel::Create(OfferedNodeInfo(offer, k), dnnl, std::move(epilogue));
    if (!kernel.ok()) {
      if (kernel.status().code() == StatusCode::kUnimplemented) continue;
      return kernel.status();
    }
    SubgraphClaim claim;
    claim.name = SpanName(offer, places);
    for (size_t place : places) {
      claim.nodes.push_back(offer.nodes[place]);
      taken[place] = true;
    }
    claim.inputs = {matmul.input(0), matmul.input(1), bias};
    claim.outputs = {y};
    claim.kernel = std::move(kernel).value();
    claims.push_back(std::move(claim));
  }
  return claims;
}

}  // namespace onnxgate::dnnl_ep
