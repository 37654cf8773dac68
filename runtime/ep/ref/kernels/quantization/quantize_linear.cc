// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear.
#include "runtime/ep/ref/kernels/quantization/quantize_linear.h"

#include <algorithm>
#include <cmath>

#include "runtime/ep/ref/kernels/tensor/indexing_util.h"

namespace onnxgate::ref {

namespace {

// Scale and zero point resolved for one input: either one pair for the whole tensor, or one pair
// per index along `axis`, where element i of x belongs to index (i / inner) % count.
struct QuantParams {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int64_t inner = 1;

  int64_t IndexOf(int64_t i) const {
    if (scale.size() == 1) return 0;
    return (i / inner) % static_cast<int64_t>(scale.size());
  }
};

StatusOr<QuantParams> ResolveParams(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                                    int64_t axis) {
  if (scale.dtype() != DataType::kFloat) {
    return InvalidArgument(std::string("the scale must be float, got ") +
                           DataTypeShortName(scale.dtype()));
  }
  const int64_t n = scale.NumElements();
  const bool per_tensor = n == 1 && scale.shape().rank() <= 1;
  if (!per_tensor) {
    if (scale.shape().rank() != 1) {
      return InvalidArgument("the scale must be a scalar or a 1-D tensor, got shape " +
                             scale.shape().ToString());
    }
    if (axis < 0 || static_cast<size_t>(axis) >= x.shape().rank() || x.shape()[axis] != n) {
      return InvalidArgument("a 1-D scale of " + std::to_string(n) +
                             " elements must match the size of axis " + std::to_string(axis) +
                             " of x " + x.shape().ToString());
    }
  }
  if (zero_point != nullptr && zero_point->shape() != scale.shape()) {
    return InvalidArgument("the zero point's shape " + zero_point->shape().ToString() +
                           " differs from the scale's shape " + scale.shape().ToString());
  }
  QuantParams p;
  p.scale.assign(scale.data<float>(), scale.data<float>() + n);
  if (zero_point != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(p.zero_point, ToInt64s(*zero_point, "zero_point"));
  } else {
    p.zero_point.assign(static_cast<size_t>(n), 0);
  }
  if (!per_tensor) {
    for (size_t d = static_cast<size_t>(axis) + 1; d < x.shape().rank(); ++d)
      p.inner *= x.shape()[d];
  }
  return p;
}

template <typename Q>
void QuantizeInto(const std::vector<float>& x, const QuantParams& p, Q* y) {
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t j = p.IndexOf(static_cast<int64_t>(i));
    // Division in float32, as the spec's reference and ONNX Runtime compute it.
    const float scaled = x[i] / p.scale[j];
    y[i] = SaturateTo<Q>(RoundHalfToEven(scaled) + static_cast<double>(p.zero_point[j]));
  }
}

StatusOr<std::vector<float>> FloatInputOf(const Tensor& x) {
  std::vector<float> v(static_cast<size_t>(x.NumElements()));
  if (x.dtype() == DataType::kFloat) {
    std::copy(x.data<float>(), x.data<float>() + v.size(), v.begin());
  } else if (x.dtype() == DataType::kInt32) {
    const int32_t* p = x.data<int32_t>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(p[i]);
  } else {
    return InvalidArgument(std::string("x must be float or int32, got ") +
                           DataTypeShortName(x.dtype()));
  }
  return v;
}

}  // namespace

StatusOr<Tensor> QuantizeLinear(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                                int64_t axis) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<float> xf, FloatInputOf(x));
  ONNXGATE_ASSIGN_OR_RETURN(QuantParams p, ResolveParams(x, scale, zero_point, axis));
  const DataType out_type = zero_point != nullptr ? zero_point->dtype() : DataType::kUint8;
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(out_type, x.shape()));
  if (out_type == DataType::kUint8) {
    QuantizeInto(xf, p, y.mutable_data<uint8_t>());
  } else if (out_type == DataType::kInt8) {
    QuantizeInto(xf, p, y.mutable_data<int8_t>());
  } else {
    return InvalidArgument(std::string("y_zero_point must be int8 or uint8, got ") +
                           DataTypeShortName(out_type));
  }
  return y;
}

StatusOr<Tensor> DequantizeLinear(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                                  int64_t axis) {
  if (x.dtype() != DataType::kInt8 && x.dtype() != DataType::kUint8 &&
      x.dtype() != DataType::kInt32) {
    return InvalidArgument(std::string("x must be int8, uint8 or int32, got ") +
                           DataTypeShortName(x.dtype()));
  }
  if (zero_point != nullptr && zero_point->dtype() != x.dtype()) {
    return InvalidArgument(std::string("x_zero_point must have x's type ") +
                           DataTypeShortName(x.dtype()) + ", got " +
                           DataTypeShortName(zero_point->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(QuantParams p, ResolveParams(x, scale, zero_point, axis));
  if (x.dtype() == DataType::kInt32) {
    for (int64_t z : p.zero_point) {
      if (z != 0) {
        return InvalidArgument("int32 input has no zero point, so x_zero_point must be 0, got " +
                               std::to_string(z));
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> xi, ToInt64s(x, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, x.shape()));
  float* out = y.mutable_data<float>();
  for (size_t i = 0; i < xi.size(); ++i) {
    const int64_t j = p.IndexOf(static_cast<int64_t>(i));
    out[i] = static_cast<float>(xi[i] - p.zero_point[j]) * p.scale[j];
  }
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> QuantizeLinearKernel::Create(const KernelInfo& info) {
  const bool per_axis = info.since_version() >= 13;
  if (!per_axis && info.has_attribute("axis")) {
    return InvalidArgument(info.Describe() + ": 'axis' exists from opset 13");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 1));
  return std::unique_ptr<OpKernel>(
      new QuantizeLinearKernel(info, info.op_type() == "DequantizeLinear", axis, per_axis));
}

StatusOr<std::unique_ptr<OpKernel>> DequantizeLinearKernel::Create(const KernelInfo& info) {
  return QuantizeLinearKernel::Create(info);
}

Status QuantizeLinearKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale,
                            GetInput(ctx, 1, dequantize_ ? "x_scale" : "y_scale"));
  const Tensor* zero_point = ctx.input_tensor(2);
  int64_t axis = -1;
  if (scale->NumElements() != 1 || scale->shape().rank() > 1) {
    if (!per_axis_) {
      return InvalidArgument("the scale must be a scalar before opset 13, got shape " +
                             scale->shape().ToString());
    }
    ONNXGATE_ASSIGN_OR_RETURN(axis, NormalizeAxisOf(axis_, static_cast<int64_t>(x->shape().rank()),
                                                    /*allow_negative=*/true));
  }
  if (dequantize_) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, DequantizeLinear(*x, *scale, zero_point, axis));
    ctx.set_output(0, std::move(y));
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, QuantizeLinear(*x, *scale, zero_point, axis));
    ctx.set_output(0, std::move(y));
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> DynamicQuantizeLinearKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new DynamicQuantizeLinearKernel(info));
}

Status DynamicQuantizeLinearKernel::Run(KernelContext& ctx) const {
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
