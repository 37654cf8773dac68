// Range.
#include "runtime/ep/ref/kernels/generator/range.h"

#include <cmath>
#include <string>

#include "runtime/ep/ref/kernels/tensor/cast_string.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// The one element of a float16 or bfloat16 tensor as a scalar tensor of `to` (float or double).
Tensor WidenScalar(const Tensor& t, DataType to) {
  float v = 0;
  Status st = VisitFloatTypes(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    v = ToCompute(t.data<T>()[0]);
    return OkStatus();
  });
  ONNXGATE_CHECK(st.ok());  // the caller passes half types only
  return to == DataType::kDouble ? Tensor::Scalar<double>(v) : Tensor::Scalar<float>(v);
}

}  // namespace

StatusOr<Tensor> Range(const Tensor& start, const Tensor& limit, const Tensor& delta,
                       DataType stash_type) {
  for (const Tensor* t : {&start, &limit, &delta}) {
    if (t->dtype() != start.dtype()) {
      return InvalidArgument("start, limit and delta must have one type, got " +
                             std::string(DataTypeShortName(start.dtype())) + ", " +
                             DataTypeShortName(limit.dtype()) + " and " +
                             DataTypeShortName(delta.dtype()));
    }
    if (t->NumElements() != 1) {
      return InvalidArgument("start, limit and delta must be scalars, got shape " +
                             t->shape().ToString());
    }
  }
  if (stash_type != DataType::kFloat && stash_type != DataType::kDouble) {
    return InvalidArgument(std::string("stash_type must be float or double, got ") +
                           DataTypeShortName(stash_type));
  }
  Tensor y;
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(start.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (kIsHalf<T>) {
      // The range in the stash type, each element then rounded to T once.
      ONNXGATE_ASSIGN_OR_RETURN(
          Tensor wide, Range(WidenScalar(start, stash_type), WidenScalar(limit, stash_type),
                             WidenScalar(delta, stash_type), stash_type));
      ONNXGATE_ASSIGN_OR_RETURN(y, NewTensor(start.dtype(), wide.shape()));
      T* out = y.mutable_data<T>();
      for (int64_t i = 0, n = wide.NumElements(); i < n; ++i) {
        out[i] = stash_type == DataType::kDouble
                     ? T::FromFloat(RoundToOddFloat(wide.data<double>()[i]))
                     : T::FromFloat(wide.data<float>()[i]);
      }
      return OkStatus();
    } else {
      const T s = start.data<T>()[0], l = limit.data<T>()[0], d = delta.data<T>()[0];
      if (d == 0) return InvalidArgument("delta is 0");
      int64_t count = 0;
      if constexpr (kIsInt<T>) {
        // Exact integer ceil((l - s) / d); the difference of two int64 needs 65 bits.
        const __int128 diff = static_cast<__int128>(l) - static_cast<__int128>(s);
        if ((diff > 0 && d > 0) || (diff < 0 && d < 0)) {
          count = static_cast<int64_t>((diff + d - (d > 0 ? 1 : -1)) / d);
        }
      } else {
        const double n =
            std::ceil((static_cast<double>(l) - static_cast<double>(s)) / static_cast<double>(d));
        if (std::isnan(n)) return InvalidArgument("the length of the range is NaN");
        count = n > 0 ? SaturatingCast<int64_t>(n) : 0;
      }
      ONNXGATE_ASSIGN_OR_RETURN(y, NewTensor(start.dtype(), Shape({count})));
      T* out = y.mutable_data<T>();
      for (int64_t i = 0; i < count; ++i) {
        if constexpr (kIsInt<T>) {
          out[i] = WrapAdd<T>(s, WrapMul<T>(static_cast<T>(i), d));
        } else {
          // start + i * delta, not repeated addition, so that rounding does not accumulate.
          out[i] = static_cast<T>(s + static_cast<T>(i) * d);
        }
      }
      return OkStatus();
    }
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> RangeKernel::Create(const KernelInfo& info) {
  DataType stash_type = DataType::kFloat;
  if (info.since_version() >= 27) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t code, info.GetInt("stash_type", 1));
    if (code != static_cast<int64_t>(DataType::kFloat) &&
        code != static_cast<int64_t>(DataType::kDouble)) {
      return InvalidArgument("attribute 'stash_type' = " + std::to_string(code) +
                             " must be 1 (float) or 11 (double)");
    }
    stash_type = static_cast<DataType>(code);
  }
  return std::unique_ptr<OpKernel>(new RangeKernel(stash_type));
}

Status RangeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* start, GetInput(ctx, 0, "start"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* limit, GetInput(ctx, 1, "limit"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* delta, GetInput(ctx, 2, "delta"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Range(*start, *limit, *delta, stash_type_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
