// QuantizeLinear.
#include "runtime/ep/ref/kernels/quantization/quantize_linear.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// The output types (y_zero_point's T2, or T3 from opset 23) of each version.
bool IsQuantizedType(DataType t, int since_version) {
  switch (t) {
    case DataType::kInt8:
    case DataType::kUint8: return true;
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ: return since_version >= 19;
    case DataType::kInt16:
    case DataType::kUint16:
    case DataType::kInt4:
    case DataType::kUint4: return since_version >= 21;
    case DataType::kFloat4E2M1: return since_version >= 23;
    case DataType::kInt2:
    case DataType::kUint2: return since_version >= 25;
    default: return false;
  }
}

// The scale types: float before opset 19; x's type T1 in opsets 19 and 21; T2 from opset 23.
Status CheckScaleType(DataType scale, DataType x, int since_version) {
  bool ok = false;
  if (since_version < 19) {
    ok = scale == DataType::kFloat;
  } else if (since_version < 23) {
    ok = scale == x;
  } else {
    ok = scale == DataType::kFloat || scale == DataType::kFloat16 || scale == DataType::kBFloat16 ||
         scale == DataType::kInt32 || (since_version >= 24 && scale == DataType::kFloat8E8M0);
  }
  if (ok) return OkStatus();
  return InvalidArgument(std::string("'y_scale' of type ") + DataTypeShortName(scale) +
                         " is not allowed with x of type " + DataTypeShortName(x) +
                         " in this version");
}

// The integer value `v` (already rounded, zero point added) clamped into [lo, hi]; NaN gives 0.
double Saturate(double v, double lo, double hi) {
  if (std::isnan(v)) return 0;
  return std::clamp(v, lo, hi);
}

template <typename Q>
void StoreIntegers(const std::vector<double>& v, Tensor& y) {
  Q* out = y.mutable_data<Q>();
  for (size_t i = 0; i < v.size(); ++i) out[i] = SaturateTo<Q>(v[i]);
}

// Stores the quantized values: `rounded` holds round(x / scale) + zero point for integer types,
// `exact` holds x / scale + zero point for the float types.
Status StoreQuantized(const std::vector<double>& rounded, const std::vector<double>& exact,
                      bool saturate, Tensor& y) {
  const DataType t = y.dtype();
  switch (t) {
    case DataType::kInt8: StoreIntegers<int8_t>(rounded, y); return OkStatus();
    case DataType::kUint8: StoreIntegers<uint8_t>(rounded, y); return OkStatus();
    case DataType::kInt16: StoreIntegers<int16_t>(rounded, y); return OkStatus();
    case DataType::kUint16: StoreIntegers<uint16_t>(rounded, y); return OkStatus();
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2: {
      const double lo = SubByteIntMin(t), hi = SubByteIntMax(t);
      for (size_t i = 0; i < rounded.size(); ++i) {
        const int64_t v = static_cast<int64_t>(Saturate(rounded[i], lo, hi));
        ONNXGATE_RETURN_IF_ERROR(y.SetSubByteInt(static_cast<int64_t>(i), v));
      }
      return OkStatus();
    }
    case DataType::kFloat4E2M1:
      // No infinity or NaN: FromFloat always saturates ('saturate' applies to float8 only).
      for (size_t i = 0; i < exact.size(); ++i) {
        y.SetPackedCode(static_cast<int64_t>(i),
                        Float4E2M1::FromFloat(static_cast<float>(exact[i])).bits);
      }
      return OkStatus();
    default:
      return VisitFloat8Types(t, [&](auto tag) -> Status {
        using F = decltype(tag);
        F* out = y.mutable_data<F>();
        for (size_t i = 0; i < exact.size(); ++i) {
          out[i] = F::FromFloat(static_cast<float>(exact[i]), saturate);
        }
        return OkStatus();
      });
  }
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> QuantizeLinearKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(QuantLayoutRules rules, ReadQuantLayoutRules(info));
  ONNXGATE_RETURN_IF_ERROR(CheckAttributeSince(info, "saturate", 19));
  ONNXGATE_RETURN_IF_ERROR(CheckAttributeSince(info, "output_dtype", 21));
  ONNXGATE_RETURN_IF_ERROR(CheckAttributeSince(info, "precision", 23));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t saturate, info.GetInt("saturate", 1));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t output_dtype, info.GetInt("output_dtype", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t precision, info.GetInt("precision", 0));
  DataType out = DataType::kUndefined;
  if (output_dtype != 0) {
    if (output_dtype < 0 || output_dtype > INT32_MAX ||
        !IsValidDataType(static_cast<int32_t>(output_dtype)) ||
        !IsQuantizedType(static_cast<DataType>(output_dtype), info.since_version())) {
      return InvalidArgument("'output_dtype' " + std::to_string(output_dtype) +
                             " is not a quantized type of this version");
    }
    out = static_cast<DataType>(output_dtype);
  }
  DataType prec = DataType::kUndefined;
  if (precision != 0) {
    const bool valid = precision == static_cast<int64_t>(DataType::kFloat) ||
                       precision == static_cast<int64_t>(DataType::kFloat16) ||
                       precision == static_cast<int64_t>(DataType::kBFloat16) ||
                       precision == static_cast<int64_t>(DataType::kDouble);
    if (!valid) {
      return InvalidArgument("'precision' " + std::to_string(precision) +
                             " must be FLOAT, FLOAT16, BFLOAT16 or DOUBLE");
    }
    prec = static_cast<DataType>(precision);
  }
  return std::unique_ptr<OpKernel>(
      new QuantizeLinearKernel(info.since_version(), rules, saturate != 0, out, prec));
}

Status QuantizeLinearKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "x"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "y_scale"));
  const Tensor* zero_point = ctx.input_tensor(2);
  const DataType xt = x->dtype();
  if (xt != DataType::kFloat && xt != DataType::kInt32 &&
      !(since_version_ >= 19 && (xt == DataType::kFloat16 || xt == DataType::kBFloat16))) {
    return InvalidArgument(std::string("x of type ") + DataTypeShortName(xt) +
                           " is not allowed in this version");
  }
  ONNXGATE_RETURN_IF_ERROR(CheckScaleType(scale->dtype(), xt, since_version_));

  DataType out = output_dtype_ != DataType::kUndefined ? output_dtype_ : DataType::kUint8;
  if (zero_point != nullptr) {
    if (output_dtype_ != DataType::kUndefined && zero_point->dtype() != output_dtype_) {
      return InvalidArgument(std::string("'output_dtype' ") + DataTypeShortName(output_dtype_) +
                             " differs from the type of 'y_zero_point', " +
                             DataTypeShortName(zero_point->dtype()));
    }
    out = zero_point->dtype();
  }
  if (!IsQuantizedType(out, since_version_)) {
    return InvalidArgument(std::string("'y_zero_point' of type ") + DataTypeShortName(out) +
                           " is not a quantized type of this version");
  }
  ONNXGATE_ASSIGN_OR_RETURN(QuantLayout layout,
                            ResolveQuantLayout(x->shape(), scale->shape(), zero_point, rules_,
                                               "y_scale", "y_zero_point"));

  // The division runs in `precision`, else in the scale's type (float before opset 19, where
  // int32 x is divided by a float scale); a scale type without arithmetic of its own (int32,
  // float8e8m0) divides in double.
  const DataType prec = precision_ != DataType::kUndefined ? precision_ : scale->dtype();
  const std::vector<double> xs = ElementsAsDoubles(*x);
  const std::vector<double> ss = ElementsAsDoubles(*scale);
  const std::vector<double> zs =
      zero_point != nullptr ? ElementsAsDoubles(*zero_point) : std::vector<double>{0.0};
  std::vector<double> rounded(xs.size()), exact(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const int64_t j = layout.ParamIndex(static_cast<int64_t>(i));
    const double q = RoundToFloatType(
        RoundToFloatType(xs[i], prec) / RoundToFloatType(ss[static_cast<size_t>(j)], prec), prec);
    const double zp = zs.size() == 1 ? zs[0] : zs[static_cast<size_t>(j)];
    rounded[i] = RoundHalfToEven(q) + zp;
    // Adding a zero point of 0 would turn -0 into +0; the float types keep the quotient's sign.
    exact[i] = zp == 0 ? q : q + zp;
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(out, x->shape()));
  ONNXGATE_RETURN_IF_ERROR(StoreQuantized(rounded, exact, saturate_, y));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
