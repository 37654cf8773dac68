// The `dnnl` execution provider: float32 kernels on oneDNN's CPU primitives (eltwise, binary,
// matmul, softmax, convolution, pooling), one engine and stream per provider, primitives cached
// per kernel. The built-in runtime puts `ref` after it, so the nodes it declines run on ref and
// the placement says so (docs/architecture.md, "The dnnl EP").
#pragma once

#include <memory>

#include "runtime/provider/execution_provider.h"

namespace onnxgate {

inline constexpr char kDnnlProviderName[] = "dnnl";

// Builds the provider, its oneDNN engine and its registry (once; share the result between
// sessions), for sessions of 1 intra-op thread; ForIntraOpThreads gives the provider for more,
// up to the processors OpenMP may use. `host` lends the kernels dnnl runs on the host (Erf,
// Gather, Reshape, Flatten; dnnl_kernels.h): the built-in runtime hands over its ref provider.
// Unavailable when oneDNN cannot create a CPU engine; InvalidArgument when `host` is null.
StatusOr<std::shared_ptr<const ExecutionProvider>> CreateDnnlProvider(
    std::shared_ptr<const ExecutionProvider> host);

}  // namespace onnxgate
