// IsNaN and IsInf: one classification loop in double.
#include "runtime/ep/ref/kernels/tensor/is_nan_inf.h"

#include <cmath>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// y[i] = f(x[i]) for the bool-valued float predicates.
template <typename F>
StatusOr<Tensor> Classify(const Tensor& x, F predicate) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, x.shape()));
  if (IsFloat8(x.dtype())) {
    // The FLOAT8 types (IsNaN-20, IsInf-20): each byte decoded to its float value.
    const uint8_t* in = static_cast<const uint8_t*>(x.raw_data());
    bool* out = y.mutable_data<bool>();
    for (int64_t i = 0, n = x.NumElements(); i < n; ++i) {
      out[i] = predicate(static_cast<double>(LowPrecisionFloatToFloat(x.dtype(), in[i])));
    }
    return y;
  }
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

StatusOr<Tensor> IsNaN(const Tensor& x) {
  return Classify(x, [](double v) { return std::isnan(v); });
}

StatusOr<Tensor> IsInf(const Tensor& x, bool detect_positive, bool detect_negative) {
  return Classify(
      x, [=](double v) { return std::isinf(v) && (v > 0 ? detect_positive : detect_negative); });
}

Status IsNaNKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, IsNaN(*x));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> IsInfKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t positive, info.GetInt("detect_positive", 1));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t negative, info.GetInt("detect_negative", 1));
  return std::unique_ptr<OpKernel>(new IsInfKernel(positive != 0, negative != 0));
}

Status IsInfKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, IsInf(*x, positive_, negative_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
