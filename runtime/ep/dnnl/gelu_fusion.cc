// Gelu claims of the dnnl provider.
#include "runtime/ep/dnnl/gelu_fusion.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/graph/gelu_pattern.h"
#include "runtime/onnx/op_spec.h"

namespace onnxgate::dnnl_ep {

namespace {

// The offer's graph as the matcher reads it: producers and readers from the whole graph (a
// read outside the offered nodes counts too), constants as the session knows them at load.
class OfferLookup {
 public:
  explicit OfferLookup(const SubgraphOffer& offer) : offer_(offer) {
    const onnx::GraphProto& graph = offer.graph->proto();
    for (int i = 0; i < graph.node_size(); ++i) {
      for (const std::string& out : graph.node(i).output()) {
        if (!out.empty()) producer_[out] = i;
      }
      for (const std::string& in : graph.node(i).input()) {
        if (!in.empty()) consumers_[in].push_back(i);
      }
    }
  }

  GeluLookup Get() const {
    GeluLookup lookup;
    lookup.producer = [this](const std::string& name) {
      auto it = producer_.find(name);
      return it == producer_.end() ? -1 : it->second;
    };
    // offer.readers counts graph outputs and subgraph reads too.
    lookup.sole_reader = [this](const std::string& name) {
      auto it = consumers_.find(name);
      if (offer_.readers(name) != 1 || it == consumers_.end() || it->second.size() != 1) return -1;
      return it->second[0];
    };
    lookup.is_constant = [this](const std::string& name) {
      return offer_.constant(name) != nullptr;
    };
    lookup.scalar = [this](const std::string& name, int64_t max_rank) -> std::optional<double> {
      const Tensor* t = offer_.constant(name);
      if (t == nullptr || t->NumElements() != 1 ||
          static_cast<int64_t>(t->shape().rank()) > max_rank || t->dtype() == DataType::kString ||
          t->dtype() == DataType::kBool) {
        return std::nullopt;
      }
      return t->ElementAsDouble(0);
    };
    lookup.type_of = [this](const std::string& name) { return offer_.graph->TypeOf(name); };
    return lookup;
  }

 private:
  const SubgraphOffer& offer_;
  std::unordered_map<std::string, int> producer_;
  std::unordered_map<std::string, std::vector<int>> consumers_;
};

}  // namespace

StatusOr<std::vector<SubgraphClaim>> ClaimGeluPatterns(const SubgraphOffer& offer,
                                                       std::shared_ptr<const DnnlContext> dnnl) {
  const onnx::GraphProto& graph = offer.graph->proto();
  std::unordered_map<int, size_t> position;  // offered node -> its place in execution order
  for (size_t k = 0; k < offer.nodes.size(); ++k) position[offer.nodes[k]] = k;
  const OfferLookup view(offer);
  const GeluLookup lookup = view.Get();
  std::vector<bool> taken(offer.nodes.size(), false);
  std::vector<SubgraphClaim> claims;
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    const onnx::NodeProto& erf = graph.node(offer.nodes[k]);
    if (erf.op_type() != "Erf" || !NormalizeDomain(erf.domain()).empty() || taken[k]) continue;
    std::optional<GeluMatch> match = MatchWrittenOutGelu(graph, offer.nodes[k], lookup);
    if (!match || offer.graph->ElementType(match->x) != DataType::kFloat) continue;
    std::vector<size_t> places;
    for (int node : match->nodes) {
      auto it = position.find(node);
      if (it == position.end() || taken[it->second]) break;
      places.push_back(it->second);
    }
    if (places.size() != match->nodes.size()) continue;  // a node runs elsewhere
    std::sort(places.begin(), places.end());
    SubgraphClaim claim;
    const int first = offer.nodes[places.front()];
    const int last = offer.nodes[places.back()];
    claim.name = NodeDisplayName(graph.node(first), first) + ".." +
                 NodeDisplayName(graph.node(last), last);
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
