// Shrink.
#include "runtime/ep/ref/kernels/nn/shrink.h"

#include <cmath>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

StatusOr<Tensor> Shrink(const Tensor& x, float lambd, float bias) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t i = 0, n = x.NumElements(); i < n; ++i) {
      const double v = static_cast<double>(ToCompute(in[i]));
      double r = 0;
      if (v < -lambd) {
        r = v + bias;
      } else if (v > lambd) {
        r = v - bias;
      }
      if constexpr (kIsInt<T>) {
        out[i] = SaturatingCast<T>(r);
      } else {
        out[i] = FromCompute<T>(static_cast<ComputeType<T>>(r));
      }
    }
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> ShrinkKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float lambd, info.GetFloat("lambd", 0.5f));
  ONNXGATE_ASSIGN_OR_RETURN(float bias, info.GetFloat("bias", 0.0f));
  return std::unique_ptr<OpKernel>(new ShrinkKernel(lambd, bias));
}

Status ShrinkKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Shrink(*x, lambd_, bias_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
