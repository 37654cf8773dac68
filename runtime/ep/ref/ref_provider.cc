// The `ref` provider: a registry filled by the ref EP's registration table.
#include "runtime/ep/ref/ref_provider.h"

#include "runtime/ep/ref/ref_kernels.h"

namespace onnxgate {

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateRefProvider() {
  return RegistryProvider::Create(kRefProviderName, RegisterRefKernels);
}

}  // namespace onnxgate
