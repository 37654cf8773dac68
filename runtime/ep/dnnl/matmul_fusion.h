// dnnl's MatMul claim: a MatMul, the Add of a constant bias along the last axis that alone reads
// its output ([N] or [1, ..., 1, N], either operand order), and the Gelu that alone reads the sum
// when there is one (Gelu-20, approximate "none" or "tanh", or the written-out
// x * 0.5 * (1 + Erf(x / sqrt 2)) that graph/gelu_pattern.h matches, at any opset) run as one
// oneDNN matmul: the bias as its bias argument, the Gelu as an eltwise_gelu_erf or
// eltwise_gelu_tanh post-op. Y is written once instead of written, then read and written again by
// a binary add and by a gelu. The post-op computes what dnnl's Gelu kernel does (the same
// oneDNN code, equal bits), a NaN stays NaN and -inf gives NaN, as the nodes give them. The model
// is not rewritten: placements name the nodes and the claim, "mm+add" for two nodes and
// "mm..gelu" (its first and last node in execution order) for more. Declined: A or B not float32
// of rank >= 2 at load (a 1-D operand drops the axis the bias runs along), N unknown at load, a
// bias that is not constant or broadcasts along other axes ([M, 1], [M, N]), an intermediate
// value read elsewhere or a graph output. A Gelu that does not qualify leaves MatMul + Add claimed.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

// The MatMul + bias (+ Gelu) groups among `offer`'s nodes (all placed on dnnl), each with its
// fused kernel. A group whose fused matmul oneDNN refuses is left to run node by node; other
// errors are returned.
StatusOr<std::vector<SubgraphClaim>> ClaimMatMulBiases(const SubgraphOffer& offer,
                                                       std::shared_ptr<const DnnlContext> dnnl);

}  // namespace onnxgate::dnnl_ep
