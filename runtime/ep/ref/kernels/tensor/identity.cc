// Identity.
#include "runtime/ep/ref/kernels/tensor/identity.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> IdentityKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new IdentityKernel(info.since_version()));
}

Status IdentityKernel::Compute(KernelContext& ctx) const {
  const Value* v = ctx.input(0);
  if (v == nullptr) return InvalidArgument("input 0 ('input') is missing");
  // Each version widens what may flow through: tensors, then sequences (14), optionals (16).
  const bool allowed = v->is_tensor() || (v->is_sequence() && version_ >= 14) ||
                       (v->is_optional() && version_ >= 16);
  if (!allowed) {
    return InvalidArgument("input of type " + v->TypeString() +
                           " is not allowed in this op version");
  }
  // Values are immutable once produced, so the output shares the input's storage.
  ctx.set_output(0, *v);
  return OkStatus();
}

}  // namespace onnxgate::ref
