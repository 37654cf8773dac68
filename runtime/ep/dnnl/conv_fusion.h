// dnnl's subgraph claim: a Conv and the activation that alone reads its output (Relu,
// LeakyRelu, Clip with bounds known at load) run as one convolution primitive with the
// activation as a post-op, so Y is written once instead of written, read and written again.
// The model is not rewritten: placements name both nodes and the claim ("conv1+relu1").
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/session/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The Conv + activation pairs among `offer`'s nodes (all placed on dnnl), each with its fused
// kernel. A pair whose fused kernel oneDNN or the Conv's attributes refuse is left to run as two
// nodes; other errors are returned.
StatusOr<std::vector<SubgraphClaim>> ClaimConvActivations(const SubgraphOffer& offer,
                                                          std::shared_ptr<const DnnlContext> dnnl);

}  // namespace onnxgate::dnnl_ep
