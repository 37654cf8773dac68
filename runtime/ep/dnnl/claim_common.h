// What dnnl's subgraph claims share (conv_fusion.h, matmul_fusion.h, gelu_fusion.h, and the
// provider that chains them): the KernelInfo of an offered node, the rule for a value passed
// inside a claim (read by the next node of the pattern alone, never a graph output or a
// subgraph's), the offer's graph as the written-out Gelu matcher reads it, and the
// offer a claim function gets after another has taken its nodes, so that claims never overlap.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/graph/gelu_pattern.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/onnx/domain.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The KernelInfo of the node at place `k` of `offer` (graph node offer.nodes[k], at its active
// op version): input types and constants as the session knows them at load.
KernelInfo OfferedNodeInfo(const SubgraphOffer& offer, size_t k);

// The place of the offered node, after place `after` and not yet `taken`, that alone reads
// `value`: one read in all (offer.readers counts node inputs, subgraphs and graph outputs), by
// that node. Nothing when `value` is read elsewhere too, or by a node the offer lacks.
std::optional<size_t> SoleOfferedReader(const SubgraphOffer& offer, const std::string& value,
                                        size_t after, const std::vector<bool>& taken);

// The place of the offered node, before place `before` and not yet `taken`, that writes `value`;
// nothing when no such node writes it (a graph input, a constant, a node run elsewhere).
std::optional<size_t> OfferedWriter(const SubgraphOffer& offer, const std::string& value,
                                    size_t before, const std::vector<bool>& taken);

// A claim's name from the places of its nodes (in execution order): "a+b" for two nodes,
// "first..last" for more, with the names the session shows for unnamed nodes.
std::string SpanName(const SubgraphOffer& offer, const std::vector<size_t>& places);

// The offer's graph as the written-out Gelu matcher reads it: producers and readers from the
// whole graph (a read outside the offered nodes counts too), constants as the session knows them
// at load. Get()'s lookup refers to this object and `offer`, which must outlive it.
class OfferGeluLookup {
 public:
  explicit OfferGeluLookup(const SubgraphOffer& offer);
  GeluLookup Get() const;
  // The places in the offer of graph nodes `nodes` (a match), in execution order; nothing when
  // one of them is not offered or is `taken` (it runs elsewhere).
  std::optional<std::vector<size_t>> UntakenPlaces(const std::vector<int>& nodes,
                                                   const std::vector<bool>& taken) const;

 private:
  const SubgraphOffer& offer_;
  std::unordered_map<int, size_t> place_;  // offered node -> its place in execution order
  std::unordered_map<std::string, int> producer_;
  std::unordered_map<std::string, std::vector<int>> consumers_;
};

// `offer` less the nodes `claims` took: what the next claim function is offered.
SubgraphOffer WithoutClaimedNodes(const SubgraphOffer& offer,
                                  const std::vector<SubgraphClaim>& claims);

}  // namespace onnxgate::dnnl_ep
