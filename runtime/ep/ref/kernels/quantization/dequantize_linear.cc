// DequantizeLinear.
#include "runtime/ep/ref/kernels/quantization/dequantize_linear.h"

#include <string>
#include <vector>

namespace onnxgate::ref {

namespace {

bool IsOutputFloat(DataType t) {
  return t == DataType::kFloat || t == DataType::kFloat16 || t == DataType::kBFloat16;
}

// The scale types: float before opset 19, then float, float16 and bfloat16 (T2), and
// float8e8m0 from opset 24.
Status CheckScaleType(DataType scale, int since_version) {
  const bool ok = since_version < 19 ? scale == DataType::kFloat
                                     : IsOutputFloat(scale) ||
                                           (since_version >= 24 && scale == DataType::kFloat8E8M0);
  if (ok) return OkStatus();
  return InvalidArgument(std::string("'x_scale' of type ") + DataTypeShortName(scale) +
                         " is not allowed in this version");
}

void StoreFloat(float v, int64_t i, Tensor& y) {
  switch (y.dtype()) {
    case DataType::kFloat16: y.mutable_data<Float16>()[i] = Float16::FromFloat(v); break;
    case DataType::kBFloat16: y.mutable_data<BFloat16>()[i] = BFloat16::FromFloat(v); break;
    default: y.mutable_data<float>()[i] = v; break;
  }
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> DequantizeLinearKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(QuantLayoutRules rules, ReadQuantLayoutRules(info));
  ONNXGATE_RETURN_IF_ERROR(CheckAttributeSince(info, "output_dtype", 23));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t output_dtype, info.GetInt("output_dtype", 0));
  DataType out = DataType::kUndefined;
  if (output_dtype != 0) {
    if (output_dtype != static_cast<int64_t>(DataType::kFloat) &&
        output_dtype != static_cast<int64_t>(DataType::kFloat16) &&
        output_dtype != static_cast<int64_t>(DataType::kBFloat16)) {
      return InvalidArgument("'output_dtype' " + std::to_string(output_dtype) +
                             " must be FLOAT, FLOAT16 or BFLOAT16");
    }
    out = static_cast<DataType>(output_dtype);
  }
  return std::unique_ptr<OpKernel>(new DequantizeLinearKernel(info.since_version(), rules, out));
}

Status DequantizeLinearKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "x_scale"));
  const Tensor* zero_point = ctx.input_tensor(2);
  const DataType xt = x->dtype();
  if (!IsInteger(xt) && !IsSubByteInteger(xt) && !IsLowPrecisionFloat(xt)) {
    return InvalidArgument(std::string("x of type ") + DataTypeShortName(xt) +
                           " is not a quantized type");
  }
  if (zero_point != nullptr && zero_point->dtype() != xt) {
    return InvalidArgument(std::string("'x_zero_point' must have x's type ") +
                           DataTypeShortName(xt) + ", got " +
                           DataTypeShortName(zero_point->dtype()));
  }
  ONNXGATE_RETURN_IF_ERROR(CheckScaleType(scale->dtype(), since_version_));
  DataType out = output_dtype_ != DataType::kUndefined ? output_dtype_ : scale->dtype();
  if (!IsOutputFloat(out)) {
    return InvalidArgument(std::string("'x_scale' of type ") + DataTypeShortName(out) +
                           " cannot be the output type: set 'output_dtype'");
  }
  ONNXGATE_ASSIGN_OR_RETURN(QuantLayout layout,
                            ResolveQuantLayout(x->shape(), scale->shape(), zero_point, rules_,
                                               "x_scale", "x_zero_point"));
  const std::vector<double> zs =
      zero_point != nullptr ? ElementsAsDoubles(*zero_point) : std::vector<double>{0.0};
  if (xt == DataType::kInt32) {
    for (double z : zs) {
      if (z != 0) {
        return InvalidArgument("int32 input has no zero point, so 'x_zero_point' must be 0, got " +
                               std::to_string(static_cast<int64_t>(z)));
      }
    }
  }
  const std::vector<double> xs = ElementsAsDoubles(*x);
  const std::vector<double> ss = ElementsAsDoubles(*scale);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(out, x->shape()));
  for (size_t i = 0; i < xs.size(); ++i) {
    const size_t j = static_cast<size_t>(layout.ParamIndex(static_cast<int64_t>(i)));
    const double zp = zs.size() == 1 ? zs[0] : zs[j];
    // The difference is exact in double; it and the product are rounded to float32, then once
    // more to a narrower output type.
    const float product = static_cast<float>(xs[i] - zp) * static_cast<float>(ss[j]);
    StoreFloat(product, static_cast<int64_t>(i), y);
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
