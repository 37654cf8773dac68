// The `opencl` provider: a registry filled by the opencl EP's registration table, around one
// context whose device is set up on first use.
#include "runtime/ep/opencl/opencl_provider.h"

#include "runtime/ep/opencl/opencl_context.h"
#include "runtime/ep/opencl/opencl_kernels.h"

namespace onnxgate {

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateOpenClProvider() {
  // The default max_intra_op_threads() of 1 holds: every Compute runs its host side on the
  // calling thread and waits for the device; how the device spreads a kernel over its compute
  // units (PoCL's worker threads on a CPU, a GPU's cores) is the device's own.
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const opencl_ep::OpenClContext> context,
                            opencl_ep::OpenClContext::Create());
  return RegistryProvider::Create(kOpenClProviderName, [context](KernelRegistry& registry) {
    return opencl_ep::RegisterOpenClKernels(registry, context);
  });
}

}  // namespace onnxgate
