// The `dnnl` provider: a registry filled by the dnnl EP's registration table, around one oneDNN
// context, its subgraph claims (conv_fusion.h, matmul_fusion.h, gelu_fusion.h), and the same
// provider for each other intra-op thread count a session asks for.
#include "runtime/ep/dnnl/dnnl_provider.h"

#include <map>
#include <mutex>

#include "runtime/ep/dnnl/claim_common.h"
#include "runtime/ep/dnnl/conv_fusion.h"
#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_kernels.h"
#include "runtime/ep/dnnl/gelu_fusion.h"
#include "runtime/ep/dnnl/matmul_fusion.h"
#include "runtime/ep/dnnl/permuted_matmul_fusion.h"

namespace onnxgate {

namespace {

// The registry's kernels hold the context, so every primitive they create and run uses the
// context's thread count; a session with another count gets a sibling provider built for it
// (once per count, then shared like this one).
class DnnlProvider : public ExecutionProvider {
 public:
  static StatusOr<std::shared_ptr<const DnnlProvider>> Create(
      int threads, std::shared_ptr<const ExecutionProvider> host) {
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const dnnl_ep::DnnlContext> context,
                              dnnl_ep::DnnlContext::Create(threads));
    ONNXGATE_ASSIGN_OR_RETURN(
        std::shared_ptr<const ExecutionProvider> kernels,
        RegistryProvider::Create(kDnnlProviderName, [context, host](KernelRegistry& registry) {
          return dnnl_ep::RegisterDnnlKernels(registry, context, host);
        }));
    return std::shared_ptr<const DnnlProvider>(
        new DnnlProvider(std::move(context), std::move(kernels), threads, std::move(host)));
  }

  const std::string& name() const override { return kernels_->name(); }
  const KernelRegistry& registry() const override { return kernels_->registry(); }
  int max_intra_op_threads() const override { return dnnl_ep::MaxPrimitiveThreads(); }

  // Conv (+ residual Add) (+ activation), then MatMul + bias (+ Gelu), then MatMul with the
  // Transposes (and scale) around it, then the written-out Gelus: each claim function is offered
  // the nodes those before it left, so no node is claimed twice and a Gelu that a MatMul's bias
  // feeds runs as that matmul's post-op rather than on its own.
  StatusOr<std::vector<SubgraphClaim>> ClaimSubgraphs(const SubgraphOffer& offer) const override {
    using ClaimFunction = StatusOr<std::vector<SubgraphClaim>> (*)(
        const SubgraphOffer&, std::shared_ptr<const dnnl_ep::DnnlContext>);
    constexpr ClaimFunction kInOrder[] = {dnnl_ep::ClaimConvPostOps, dnnl_ep::ClaimMatMulBiases,
                                          dnnl_ep::ClaimPermutedMatMuls,
                                          dnnl_ep::ClaimGeluPatterns};
    std::vector<SubgraphClaim> claims;
    for (ClaimFunction claim_from : kInOrder) {
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<SubgraphClaim> more,
                                claim_from(dnnl_ep::WithoutClaimedNodes(offer, claims), context_));
      for (SubgraphClaim& claim : more) claims.push_back(std::move(claim));
    }
    return claims;
  }

  StatusOr<std::shared_ptr<const ExecutionProvider>> ForIntraOpThreads(int threads) const override {
    if (threads == threads_) return std::shared_ptr<const ExecutionProvider>();
    if (threads < 1 || threads > max_intra_op_threads()) {
      return InvalidArgument("provider 'dnnl' cannot use " + std::to_string(threads) +
                             " intra-op threads (1 to " + std::to_string(max_intra_op_threads()) +
                             ")");
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto it = siblings_.find(threads);
    if (it != siblings_.end()) return it->second;
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const DnnlProvider> sibling, Create(threads, host_));
    siblings_[threads] = sibling;
    return std::shared_ptr<const ExecutionProvider>(std::move(sibling));
  }

 private:
  DnnlProvider(std::shared_ptr<const dnnl_ep::DnnlContext> context,
               std::shared_ptr<const ExecutionProvider> kernels, int threads,
               std::shared_ptr<const ExecutionProvider> host)
      : context_(std::move(context)),
        kernels_(std::move(kernels)),
        threads_(threads),
        host_(std::move(host)) {}

  std::shared_ptr<const dnnl_ep::DnnlContext> context_;
  std::shared_ptr<const ExecutionProvider> kernels_;
  int threads_;
  std::shared_ptr<const ExecutionProvider> host_;  // lends the kernels dnnl runs on the host
  mutable std::mutex mu_;
  mutable std::map<int, std::shared_ptr<const ExecutionProvider>> siblings_;
};

}  // namespace

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateDnnlProvider(
    std::shared_ptr<const ExecutionProvider> host) {
  if (host == nullptr) return InvalidArgument("the dnnl provider needs a host provider, got none");
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const DnnlProvider> provider,
                            DnnlProvider::Create(1, std::move(host)));
  return std::shared_ptr<const ExecutionProvider>(std::move(provider));
}

}  // namespace onnxgate
