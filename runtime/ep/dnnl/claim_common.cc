// The helpers dnnl's subgraph claims share.
#include "runtime/ep/dnnl/claim_common.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <unordered_set>

#include "runtime/onnx/op_spec.h"

namespace onnxgate::dnnl_ep {

KernelInfo OfferedNodeInfo(const SubgraphOffer& offer, size_t k) {
  const onnx::NodeProto& node = offer.graph->proto().node(offer.nodes[k]);
  std::vector<DataType> types;
  std::vector<const Tensor*> constants;
  for (const std::string& in : node.input()) {
    types.push_back(in.empty() ? DataType::kUndefined : offer.graph->ElementType(in));
    constants.push_back(in.empty() ? nullptr : offer.constant(in));
  }
  return KernelInfo(node, offer.since_versions[k], std::move(types), std::move(constants));
}

std::optional<size_t> SoleOfferedReader(const SubgraphOffer& offer, const std::string& value,
                                        size_t after, const std::vector<bool>& taken) {
  if (value.empty() || offer.readers(value) != 1) return std::nullopt;
  const onnx::GraphProto& graph = offer.graph->proto();
  for (size_t j = after + 1; j < offer.nodes.size(); ++j) {
    for (const std::string& in : graph.node(offer.nodes[j]).input()) {
      if (in != value) continue;
      if (taken[j]) return std::nullopt;
      return j;
    }
  }
  return std::nullopt;
}

std::optional<size_t> OfferedWriter(const SubgraphOffer& offer, const std::string& value,
                                    size_t before, const std::vector<bool>& taken) {
  if (value.empty()) return std::nullopt;
  const onnx::GraphProto& graph = offer.graph->proto();
  for (size_t j = 0; j < before && j < offer.nodes.size(); ++j) {
    for (const std::string& out : graph.node(offer.nodes[j]).output()) {
      if (out == value) return taken[j] ? std::nullopt : std::optional<size_t>(j);
    }
  }
  return std::nullopt;
}

std::string SpanName(const SubgraphOffer& offer, const std::vector<size_t>& places) {
  const auto& nodes = offer.graph->proto().node();
  auto name = [&](size_t place) {
    const int index = offer.nodes[place];
    return NodeDisplayName(nodes.Get(index), index);
  };
  return name(places.front()) + (places.size() == 2 ? "+" : "..") + name(places.back());
}

OfferGeluLookup::OfferGeluLookup(const SubgraphOffer& offer) : offer_(offer) {
  for (size_t k = 0; k < offer.nodes.size(); ++k) place_[offer.nodes[k]] = k;
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

std::optional<std::vector<size_t>> OfferGeluLookup::UntakenPlaces(
    const std::vector<int>& nodes, const std::vector<bool>& taken) const {
  std::vector<size_t> places;
  for (int node : nodes) {
    auto it = place_.find(node);
    if (it == place_.end() || taken[it->second]) return std::nullopt;
    places.push_back(it->second);
  }
  std::sort(places.begin(), places.end());
  return places;
}

GeluLookup OfferGeluLookup::Get() const {
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
  lookup.is_constant = [this](const std::string& name) { return offer_.constant(name) != nullptr; };
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

SubgraphOffer WithoutClaimedNodes(const SubgraphOffer& offer,
                                  const std::vector<SubgraphClaim>& claims) {
  std::unordered_set<int> claimed;
  for (const SubgraphClaim& claim : claims) claimed.insert(claim.nodes.begin(), claim.nodes.end());
  SubgraphOffer rest;
  rest.graph = offer.graph;
  rest.readers = offer.readers;
  rest.constant = offer.constant;
  for (size_t k = 0; k < offer.nodes.size(); ++k) {
    if (claimed.count(offer.nodes[k]) > 0) continue;
    rest.nodes.push_back(offer.nodes[k]);
    rest.since_versions.push_back(offer.since_versions[k]);
  }
  return rest;
}

}  // namespace onnxgate::dnnl_ep
