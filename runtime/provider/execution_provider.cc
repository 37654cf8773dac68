// The default capability check (a registry lookup) and registry-backed providers.
#include "runtime/provider/execution_provider.h"

#include <onnx/onnx_pb.h>

namespace onnxgate {

StatusOr<const KernelDef*> ExecutionProvider::Claim(const NodeRequest& request) const {
  return registry().Find(request.domain, request.node->op_type(), request.since_version,
                         request.bound_types);
}

StatusOr<std::shared_ptr<const ExecutionProvider>> RegistryProvider::Create(
    std::string name, const std::function<Status(KernelRegistry&)>& register_fn) {
  KernelRegistry registry;
  Status st = register_fn(registry);
  if (!st.ok()) {
    return Internal("registering the kernels of provider '" + name + "' failed: " + st.message());
  }
  return std::shared_ptr<const ExecutionProvider>(
      new RegistryProvider(std::move(name), std::move(registry)));
}

}  // namespace onnxgate
