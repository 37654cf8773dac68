// PRelu, Shrink, IsNaN and IsInf.
#include "runtime/ep/ref/kernels/math/activation_extra.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/broadcast.h"
#include "runtime/ep/ref/kernels/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// y[i] = f(x[i]) for the bool-valued float predicates.
template <typename F>
StatusOr<Tensor> Classify(const Tensor& x, F predicate) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, x.shape()));
  ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    bool* out = y.mutable_data<bool>();
    for (int64_t i = 0, n = x.NumElements(); i < n; ++i) {
      out[i] = predicate(static_cast<double>(ToCompute(in[i])));
    }
    return OkStatus();
  }));
  return y;
}

}  // namespace

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

StatusOr<Tensor> IsNaN(const Tensor& x) {
  return Classify(x, [](double v) { return std::isnan(v); });
}

StatusOr<Tensor> IsInf(const Tensor& x, bool detect_positive, bool detect_negative) {
  return Classify(
      x, [=](double v) { return std::isinf(v) && (v > 0 ? detect_positive : detect_negative); });
}

StatusOr<std::unique_ptr<OpKernel>> PReluKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new PReluKernel(info));
}

Status PReluKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* slope, GetInput(ctx, 1, "slope"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, PRelu(*x, *slope));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ShrinkKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float lambd, info.GetFloat("lambd", 0.5f));
  ONNXGATE_ASSIGN_OR_RETURN(float bias, info.GetFloat("bias", 0.0f));
  return std::unique_ptr<OpKernel>(new ShrinkKernel(info, lambd, bias));
}

Status ShrinkKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Shrink(*x, lambd_, bias_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> IsNaNKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new IsNaNKernel(info));
}

Status IsNaNKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, IsNaN(*x));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> IsInfKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t positive, info.GetInt("detect_positive", 1));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t negative, info.GetInt("detect_negative", 1));
  return std::unique_ptr<OpKernel>(new IsInfKernel(info, positive != 0, negative != 0));
}

Status IsInfKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, IsInf(*x, positive_, negative_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
