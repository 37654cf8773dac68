// Clip.
#include "runtime/ep/ref/kernels/math/clip.h"

#include <cfloat>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

Status CheckBound(const Tensor* bound, const Tensor& x, const char* name) {
  if (bound == nullptr) return OkStatus();
  if (bound->dtype() != x.dtype()) {
    return InvalidArgument(std::string("'") + name + "' has type " +
                           DataTypeShortName(bound->dtype()) + " but input has " +
                           DataTypeShortName(x.dtype()));
  }
  if (bound->NumElements() != 1) {
    return InvalidArgument(std::string("'") + name + "' must be a scalar, got shape " +
                           bound->shape().ToString());
  }
  return OkStatus();
}

// A one-element tensor of `dtype` holding the float attribute value.
Tensor BoundFromAttribute(DataType dtype, float value) {
  Tensor t(dtype, Shape{});
  Status st = VisitFloatTypes(dtype, [&](auto tag) {
    using T = decltype(tag);
    t.mutable_data<T>()[0] = FromCompute<T>(static_cast<ComputeType<T>>(value));
    return OkStatus();
  });
  ONNXGATE_CHECK(st.ok());  // the caller checked that dtype is a float type
  return t;
}

}  // namespace

StatusOr<Tensor> Clip(const Tensor& x, const Tensor* lo, const Tensor* hi) {
  ONNXGATE_RETURN_IF_ERROR(CheckBound(lo, x, "min"));
  ONNXGATE_RETURN_IF_ERROR(CheckBound(hi, x, "max"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using C = ComputeType<T>;
    const bool has_low = lo != nullptr;
    const bool has_high = hi != nullptr;
    const C low = has_low ? ToCompute(lo->data<T>()[0]) : C{};
    const C high = has_high ? ToCompute(hi->data<T>()[0]) : C{};
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t i = 0, n = x.NumElements(); i < n; ++i) {
      C v = ToCompute(in[i]);
      // Comparisons with NaN are false, so NaN passes through unchanged.
      if (has_low && v < low) v = low;
      if (has_high && v > high) v = high;
      out[i] = FromCompute<T>(v);
    }
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> ClipKernel::Create(const KernelInfo& info) {
  if (info.since_version() >= 11) {
    return std::unique_ptr<OpKernel>(new ClipKernel(true, std::nullopt, std::nullopt));
  }
  std::optional<float> lo, hi;
  if (info.since_version() >= 6) {
    // Clip-6 gives the bounds defaults of the float range.
    ONNXGATE_ASSIGN_OR_RETURN(lo, info.GetFloat("min", -FLT_MAX));
    ONNXGATE_ASSIGN_OR_RETURN(hi, info.GetFloat("max", FLT_MAX));
  } else {
    if (info.has_attribute("min")) {
      ONNXGATE_ASSIGN_OR_RETURN(lo, info.GetFloat("min"));
    }
    if (info.has_attribute("max")) {
      ONNXGATE_ASSIGN_OR_RETURN(hi, info.GetFloat("max"));
    }
  }
  return std::unique_ptr<OpKernel>(new ClipKernel(false, lo, hi));
}

Status ClipKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  Tensor y;
  if (bounds_are_inputs_) {
    const Tensor* lo = nullptr;
    const Tensor* hi = nullptr;
    if (ctx.has_input(1)) {
      ONNXGATE_ASSIGN_OR_RETURN(lo, GetInput(ctx, 1, "min"));
    }
    if (ctx.has_input(2)) {
      ONNXGATE_ASSIGN_OR_RETURN(hi, GetInput(ctx, 2, "max"));
    }
    ONNXGATE_ASSIGN_OR_RETURN(y, Clip(*x, lo, hi));
  } else {
    if (!IsFloatingPoint(x->dtype())) {
      return InvalidArgument(std::string("input must be a float type, got ") +
                             DataTypeShortName(x->dtype()));
    }
    std::optional<Tensor> lo, hi;
    if (lo_attr_) lo = BoundFromAttribute(x->dtype(), *lo_attr_);
    if (hi_attr_) hi = BoundFromAttribute(x->dtype(), *hi_attr_);
    ONNXGATE_ASSIGN_OR_RETURN(y, Clip(*x, lo ? &*lo : nullptr, hi ? &*hi : nullptr));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
