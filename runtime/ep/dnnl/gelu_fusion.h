// dnnl's Gelu claim: the written-out Gelu, x * 0.5 * (1 + Erf(x / sqrt 2)) in any of the forms
// graph/gelu_pattern.h matches, with its constants known at load and every intermediate read
// inside the pattern alone, runs as one oneDNN eltwise_gelu_erf primitive (the kernel of ONNX's
// Gelu-20) instead of five nodes, at any opset. oneDNN's gelu_erf and the written-out form differ
// by float rounding alone; a NaN input stays NaN (RunEltwise copies it through) and -inf gives
// NaN in both. The model is not rewritten: placements name the five nodes and the claim
// ("div1..mul2", its first and last node in execution order). Declined: a pattern with a node
// dnnl does not run (Sum for 1 + erf), an x that is not float32, an intermediate read elsewhere.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The written-out Gelus among `offer`'s nodes (all placed on dnnl), each with its kernel.
StatusOr<std::vector<SubgraphClaim>> ClaimGeluPatterns(const SubgraphOffer& offer,
                                                       std::shared_ptr<const DnnlContext> dnnl);

}  // namespace onnxgate::dnnl_ep
