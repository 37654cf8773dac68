// Identity on dnnl (see identity.h).
#include "runtime/ep/dnnl/kernels/identity.h"

#include "runtime/ep/ref/kernels/tensor/identity.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::unique_ptr<OpKernel>> IdentityKernel::Create(
    const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> host, ref::IdentityKernel::Create(info));
  return std::unique_ptr<OpKernel>(new IdentityKernel(std::move(dnnl), std::move(host)));
}

Status IdentityKernel::Compute(KernelContext& ctx) const {
  const Value* v = ctx.input(0);
  if (v != nullptr && v->is_resident()) {
    // The executor hands on only residents of this provider's domain; values are immutable
    // once produced, so the output shares the input's oneDNN memory.
    ctx.set_output(0, *v);
    return OkStatus();
  }
  return host_->Compute(ctx);
}

}  // namespace onnxgate::dnnl_ep
