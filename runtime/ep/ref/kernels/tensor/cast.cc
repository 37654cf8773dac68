// Cast and CastLike.
#include "runtime/ep/ref/kernels/tensor/cast.h"

#include <algorithm>

#include "runtime/ep/ref/kernels/tensor/cast_string.h"
#include "runtime/ep/ref/kernels/common/compute_type.h"
#include "runtime/ep/ref/kernels/common/type_lists.h"

namespace onnxgate::ref {

namespace {

// Numeric and bool element types with every conversion between them.
template <typename Fn>
Status VisitCastTypes(DataType type, Fn&& fn) {
  if (type == DataType::kBool) return fn(bool{});
  return VisitArithmeticTypes(type, fn);
}

template <typename From, typename To>
To ConvertNumber(From v) {
  if constexpr (std::is_same_v<From, To>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return ToCompute(v) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return FromCompute<To>(static_cast<ComputeType<To>>(v ? 1 : 0));
  } else if constexpr (kIsHalf<To>) {
    if constexpr (std::is_same_v<From, float> || kIsHalf<From>) {
      return To::FromFloat(ToCompute(v));  // float holds every float16/bfloat16 exactly
    } else {
      return To::FromFloat(RoundToOddFloat(static_cast<double>(v)));
    }
  } else if constexpr (kIsInt<To> && kIsFloat<From>) {
    return SaturatingCast<To>(static_cast<double>(ToCompute(v)));
  } else {
    // int -> int wraps, int -> float and float -> float round to nearest.
    return static_cast<To>(ToCompute(v));
  }
}

template <typename From>
std::string NumberToText(From v) {
  if constexpr (kIsFloat<From>) {
    return FloatToText(static_cast<double>(ToCompute(v)), DataTypeOf<From>::value);
  } else {
    return IntegerToText(v);
  }
}

template <typename To>
StatusOr<To> TextToNumber(const std::string& s) {
  if constexpr (std::is_same_v<To, bool>) {
    return ParseBoolText(s);
  } else if constexpr (kIsInt<To>) {
    return ParseIntegerText<To>(s);
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(double d, ParseFloatText(s, DataTypeOf<To>::value));
    // d already has the precision of To, so this conversion is exact.
    return FromCompute<To>(static_cast<ComputeType<To>>(d));
  }
}

// The types Cast's output constraint T2 allows at `version`.
std::vector<DataType> CastTargets(int version) {
  using namespace types;  // NOLINT
  List t = Ints() + F3() + List{kBool};
  if (version >= 9) t = t + List{kStr};
  if (version >= 13) t = t + List{kBF16};
  return t;
}

}  // namespace

StatusOr<Tensor> CastTensor(const Tensor& x, DataType to) {
  if (IsComplex(x.dtype()) || IsComplex(to)) {
    return Unimplemented(std::string("Cast between ") + DataTypeShortName(x.dtype()) + " and " +
                         DataTypeShortName(to) + " is not defined by ONNX");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(to, x.shape()));
  const int64_t n = x.NumElements();
  if (x.dtype() == DataType::kString && to == DataType::kString) {
    std::copy(x.data<std::string>(), x.data<std::string>() + n, y.mutable_data<std::string>());
    return y;
  }
  if (x.dtype() == DataType::kString) {
    const std::string* in = x.data<std::string>();
    ONNXGATE_RETURN_IF_ERROR(VisitCastTypes(to, [&](auto to_tag) -> Status {
      using To = decltype(to_tag);
      To* out = y.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) {
        auto v = TextToNumber<To>(in[i]);
        if (!v.ok()) {
          return v.status().WithContext("element " + std::to_string(i) + " of the input");
        }
        out[i] = *v;
      }
      return OkStatus();
    }));
    return y;
  }
  ONNXGATE_RETURN_IF_ERROR(VisitCastTypes(x.dtype(), [&](auto from_tag) {
    using From = decltype(from_tag);
    const From* in = x.data<From>();
    if (to == DataType::kString) {
      std::string* out = y.mutable_data<std::string>();
      for (int64_t i = 0; i < n; ++i) out[i] = NumberToText(in[i]);
      return OkStatus();
    }
    return VisitCastTypes(to, [&](auto to_tag) {
      using To = decltype(to_tag);
      To* out = y.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) out[i] = ConvertNumber<From, To>(in[i]);
      return OkStatus();
    });
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> CastKernel::Create(const KernelInfo& info) {
  DataType to = DataType::kUndefined;
  if (info.since_version() < 6) {
    // Cast-1 names the type as a string ("FLOAT").
    ONNXGATE_ASSIGN_OR_RETURN(std::string name, info.GetString("to"));
    auto parsed = DataTypeFromName(name);
    if (!parsed.ok()) {
      return InvalidArgument(info.Describe() + ": attribute 'to' = \"" + name +
                             "\" is not a data type name");
    }
    to = *parsed;
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t code, info.GetInt("to"));
    if (code < 0 || code > INT32_MAX || !IsValidDataType(static_cast<int32_t>(code))) {
      return InvalidArgument(info.Describe() + ": attribute 'to' = " + std::to_string(code) +
                             " is not a TensorProto data type");
    }
    to = static_cast<DataType>(code);
  }
  const std::vector<DataType> allowed = CastTargets(info.since_version());
  if (std::find(allowed.begin(), allowed.end(), to) == allowed.end()) {
    return InvalidArgument(info.Describe() + ": cannot cast to " + DataTypeShortName(to) +
                           " in this op version");
  }
  return std::unique_ptr<OpKernel>(new CastKernel(info, to));
}

Status CastKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, CastTensor(*x, to_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> CastLikeKernel::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new CastLikeKernel(info));
}

Status CastLikeKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* like, GetInput(ctx, 1, "target_type"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, CastTensor(*x, like->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
