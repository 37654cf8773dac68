// PRelu and SwiGLU.
#include "runtime/ep/ref/kernels/math/activation_extra.h"

#include <cmath>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {}  // namespace

StatusOr<Tensor> PRelu(const Tensor& x, const Tensor& slope) {
  if (x.dtype() != slope.dtype()) {
    return InvalidArgument(std::string("X and slope must have one element type, got ") +
                           DataTypeShortName(x.dtype()) + " and " +
                           DataTypeShortName(slope.dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(x.shape(), slope.shape()));
  if (shape != x.shape()) {
    return InvalidArgument("slope " + slope.shape().ToString() + " does not broadcast onto X " +
                           x.shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    BroadcastBinary<T, T, T>(x, slope, &y, [](T v, T s) {
      if constexpr (kIsInt<T>) {
        return v < 0 ? WrapMul(s, v) : v;
      } else {
        auto c = ToCompute(v);
        return c < 0 ? FromCompute<T>(ToCompute(s) * c) : v;
      }
    });
    return OkStatus();
  }));
  return y;
}

StatusOr<Tensor> SwiGLU(const Tensor& a, const Tensor& b, float alpha) {
  if (a.dtype() != b.dtype()) {
    return InvalidArgument(std::string("A and B must have one element type, got ") +
                           DataTypeShortName(a.dtype()) + " and " + DataTypeShortName(b.dtype()));
  }
  if (a.shape() != b.shape()) {
    return InvalidArgument("A and B must have one shape (SwiGLU does not broadcast), got " +
                           a.shape().ToString() + " and " + b.shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(a.dtype(), a.shape()));
  ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using C = ComputeType<T>;
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* out = y.mutable_data<T>();
    const C k = static_cast<C>(alpha);
    for (int64_t i = 0, n = a.NumElements(); i < n; ++i) {
      const C g = ToCompute(pa[i]);
      const C v = k * g;
      // The sigmoid in the form whose exp does not overflow.
      const C sigmoid = v >= 0 ? C(1) / (C(1) + std::exp(-v)) : std::exp(v) / (C(1) + std::exp(v));
      out[i] = FromCompute<T>(g * sigmoid * ToCompute(pb[i]));
    }
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> PReluKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new PReluKernel(info.since_version() < 7));
}

Status PReluKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* slope, GetInput(ctx, 1, "slope"));
  if (legacy_) {
    const Shape& xs = x->shape();
    const Shape& ss = slope->shape();
    Tensor view;
    if (slope->NumElements() == 1) {
      view = slope->Reshaped(Shape{});
    } else if (ss == xs) {
      view = *slope;
    } else if (ss.rank() == 1 && xs.rank() >= 2 && ss[0] == xs[1]) {
      // One slope per channel: [C] viewed as [C, 1, ..., 1] lines up with X's dim 1.
      std::vector<int64_t> dims(xs.rank() - 1, 1);
      dims[0] = ss[0];
      view = slope->Reshaped(Shape(dims));
    } else {
      return InvalidArgument("slope " + ss.ToString() + " must hold one value, have X's shape " +
                             xs.ToString() + ", or hold one value per channel (dim 1 of X)");
    }
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, PRelu(*x, view));
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, PRelu(*x, *slope));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> SwiGLUKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 1.0f));
  return std::unique_ptr<OpKernel>(new SwiGLUKernel(alpha));
}

Status SwiGLUKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, SwiGLU(*a, *b, alpha_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
