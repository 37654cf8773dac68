// Identity on dnnl (see identity.h).
#include "runtime/ep/dnnl/kernels/identity.h"

#include "runtime/provider/borrowed_kernel.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::unique_ptr<OpKernel>> IdentityKernel::Create(
    const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl,
    const std::shared_ptr<const ExecutionProvider>& host_provider) {
  // Identity's constraint is T through -13 and V from -14; dnnl binds it to float32 either way.
  const char* constraint = info.since_version() < 14 ? "T" : "V";
  ONNXGATE_ASSIGN_OR_RETURN(
      std::unique_ptr<OpKernel> host,
      CreateBorrowedKernel(*host_provider, info, {{constraint, DataType::kFloat}}));
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
