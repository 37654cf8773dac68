// The `dnnl` provider: a registry filled by the dnnl EP's registration table, around one engine.
#include "runtime/ep/dnnl/dnnl_provider.h"

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_kernels.h"

namespace onnxgate {

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateDnnlProvider() {
  // Every primitive runs on the calling thread alone (DnnlContext::kThreads), which is what the
  // default max_intra_op_threads() of 1 says.
  static_assert(dnnl_ep::DnnlContext::kThreads == 1,
                "a provider whose primitives use more threads must say so in "
                "max_intra_op_threads()");
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const dnnl_ep::DnnlContext> context,
                            dnnl_ep::DnnlContext::Create());
  return RegistryProvider::Create(kDnnlProviderName, [context](KernelRegistry& registry) {
    return dnnl_ep::RegisterDnnlKernels(registry, context);
  });
}

}  // namespace onnxgate
