// dnnl's claim of a MatMul with the Transposes around it: a Transpose that alone feeds A or B,
// a Mul by a one-element float constant (rank 0 or 1, finite) that alone reads the product, and
// a Transpose that alone reads the product or that scaled product, run as one oneDNN matmul
// over strided memory (kernels/permuted_matmul.h) instead of a copy per Transpose and a pass
// for the Mul. Attention's Q x K^T scaled, and probabilities x V with its heads merged back, are
// this shape. The model is not rewritten: placements name the nodes and the claim ("t+mm" for
// two nodes, "first..last" for more). Declined: a MatMul without any of these neighbours, an
// operand of rank < 2 or unknown rank at load (1-D operands change MatMul's shape rules), an
// intermediate value read elsewhere or a graph output, a Mul before opset 7's broadcasting.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The MatMuls among `offer`'s nodes (all placed on dnnl) with Transposes or a scale to take,
// each group with its kernel.
StatusOr<std::vector<SubgraphClaim>> ClaimPermutedMatMuls(const SubgraphOffer& offer,
                                                          std::shared_ptr<const DnnlContext> dnnl);

}  // namespace onnxgate::dnnl_ep
