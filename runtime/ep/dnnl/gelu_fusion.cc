// Gelu claims of the dnnl provider.
#include "runtime/ep/dnnl/gelu_fusion.h"

#include <onnx/onnx_pb.h>

#include <string>

#include "runtime/ep/dnnl/claim_common.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/graph/gelu_pattern.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::vector<SubgraphClaim>> ClaimGeluPatterns(const SubgraphOffer& offer,
                                                       std::shared_ptr<const DnnlContext> dnnl) {
  const onnx::GraphProto& graph = offer.graph->proto();
  const OfferGeluLookup view(offer);
  const GeluLookup lookup = view.Get();
  std::vector<bool> taken(offer.nodes.size(), false);
  std::vector<SubgraphClaim> claims;
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    const onnx::NodeProto& erf = graph.node(offer.nodes[k]);
    if (!IsOnnxOp(erf, "Erf") || taken[k]) continue;
    std::optional<GeluMatch> match = MatchWrittenOutGelu(graph, offer.nodes[k], lookup);
    if (!match || offer.graph->ElementType(match->x) != DataType::kFloat) continue;
    const std::optional<std::vector<size_t>> found = view.UntakenPlaces(match->nodes, taken);
    if (!found) continue;  // a node runs elsewhere
    const std::vector<size_t>& places = *found;
    SubgraphClaim claim;
    claim.name = SpanName(offer, places);  // "first..last": a match has five nodes or more
    for (size_t place : places) {
      claim.nodes.push_back(offer.nodes[place]);
      taken[place] = true;
    }
    claim.inputs = {match->x};
    claim.outputs = {match->y};
    claim.kernel = EltwiseKernel::FromSteps({{dnnl::algorithm::eltwise_gelu_erf}}, dnnl);
    claims.push_back(std::move(claim));
  }
  return claims;
}

}  // namespace onnxgate::dnnl_ep
