// The `opencl` provider: a registry filled by the opencl EP's registration table, around one
// context whose device is set up on first use, and a capability check that also declines nodes
// whose element types are not known at load.
#include "runtime/ep/opencl/opencl_provider.h"

#include <onnx/onnx_pb.h>

#include "runtime/ep/opencl/opencl_context.h"
#include "runtime/ep/opencl/opencl_kernels.h"

namespace onnxgate {

namespace {

class OpenClProvider : public ExecutionProvider {
 public:
  explicit OpenClProvider(KernelRegistry registry) : registry_(std::move(registry)) {}

  const std::string& name() const override { return name_; }
  const KernelRegistry& registry() const override { return registry_; }

  // The registry's kernel, if every type constraint it declares is bound to a known element
  // type. The kernels take float32 alone, and the registry does not check a constraint the
  // node's types leave unbound (a node in a subgraph whose inputs shape inference could not
  // type): such a node might carry int64 at run time, where this provider could only fail. It
  // is declined at load instead, so it runs on the next provider.
  StatusOr<const KernelDef*> Claim(const NodeRequest& request) const override {
    ONNXGATE_ASSIGN_OR_RETURN(const KernelDef* def, ExecutionProvider::Claim(request));
    for (const TypeConstraint& constraint : def->type_constraints) {
      if (request.bound_types.count(constraint.name) == 0) {
        return Unimplemented("the element type of " + constraint.name + " of " +
                             request.node->op_type() +
                             " is not known at load, and the opencl kernels take float32 only");
      }
    }
    return def;
  }

 private:
  const std::string name_ = kOpenClProviderName;
  KernelRegistry registry_;
};

}  // namespace

StatusOr<std::shared_ptr<const ExecutionProvider>> CreateOpenClProvider() {
  // The default max_intra_op_threads() of 1 holds: every Compute runs its host side on the
  // calling thread and waits for the device; how the device spreads a kernel over its compute
  // units (PoCL's worker threads on a CPU, a GPU's cores) is the device's own.
  ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const opencl_ep::OpenClContext> context,
                            opencl_ep::OpenClContext::Create());
  KernelRegistry registry;
  if (Status st = opencl_ep::RegisterOpenClKernels(registry, context); !st.ok()) {
    return Internal(std::string("registering the kernels of provider '") + kOpenClProviderName +
                    "' failed: " + st.message());
  }
  return std::shared_ptr<const ExecutionProvider>(new OpenClProvider(std::move(registry)));
}

}  // namespace onnxgate
