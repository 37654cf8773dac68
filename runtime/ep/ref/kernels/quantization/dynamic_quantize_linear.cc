// DynamicQuantizeLinear.
#include "runtime/ep/ref/kernels/quantization/dynamic_quantize_linear.h"

#include <algorithm>
#include <cmath>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

Status DynamicQuantizeLinearKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "x"));
  if (x->dtype() != DataType::kFloat) {
    return InvalidArgument(std::string("x must be float, got ") + DataTypeShortName(x->dtype()));
  }
  const float* xs = x->data<float>();
  const int64_t n = x->NumElements();
  // The range always includes 0 so that 0 is exactly representable. NaN has no place in a range
  // (it quantizes to the saturated value 0 below).
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(xs[i])) continue;
    lo = std::min(lo, xs[i]);
    hi = std::max(hi, xs[i]);
  }
  // float32 arithmetic throughout, as the spec's formula is written for float tensors. An
  // all-zero (or empty) x has no range; scale 1 and zero point 0 then quantize it exactly.
  float scale = (hi - lo) / 255.0f;
  uint8_t zero_point = 0;
  if (scale == 0.0f) {
    scale = 1.0f;
  } else {
    const float intermediate = 0.0f - lo / scale;
    zero_point = SaturateTo<uint8_t>(RoundHalfToEven(std::clamp(intermediate, 0.0f, 255.0f)));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kUint8, x->shape()));
  uint8_t* ys = y.mutable_data<uint8_t>();
  for (int64_t i = 0; i < n; ++i) {
    ys[i] = SaturateTo<uint8_t>(RoundHalfToEven(xs[i] / scale) + zero_point);
  }
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, Tensor::Scalar<float>(scale));
  ctx.set_output(2, Tensor::Scalar<uint8_t>(zero_point));
  return OkStatus();
}

}  // namespace onnxgate::ref
