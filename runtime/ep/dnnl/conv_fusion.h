// dnnl's subgraph claim: a Conv, the residual Add that alone reads its output (optional) and the
// activation that alone reads that (Relu, LeakyRelu, Clip with bounds known at load) run as one
// convolution primitive with the sum and the activation as post-ops, so Y is written once
// instead of written, read and written again. The model is not rewritten: placements name every
// node and the claim ("conv1+add1+relu1").
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The Conv (+ residual Add) (+ activation) chains among `offer`'s nodes (all placed on dnnl), each
// with its fused kernel. A chain whose fused kernel oneDNN or the Conv's attributes refuse is left
// to run node by node; other errors are returned.
StatusOr<std::vector<SubgraphClaim>> ClaimConvPostOps(const SubgraphOffer& offer,
                                                      std::shared_ptr<const DnnlContext> dnnl);

}  // namespace onnxgate::dnnl_ep
