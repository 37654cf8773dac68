// Binarizer.
#include "runtime/ep/ref/kernels/ml/binarizer.h"

#include <string>

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> BinarizerKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float threshold, info.GetFloat("threshold", 0.0f));
  return std::unique_ptr<OpKernel>(new BinarizerKernel(threshold));
}

Status BinarizerKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x->dtype(), x->shape()));
  // The comparison runs in double, where the float threshold and every int32 are exact.
  Status st = VisitNumericTypes(x->dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* in = x->data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t i = 0; i < x->NumElements(); ++i) {
      out[i] = static_cast<double>(in[i]) > static_cast<double>(threshold_) ? T{1} : T{0};
    }
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
