// EyeLike: ones on the k-th diagonal.
#include "runtime/ep/ref/kernels/generator/eye_like.h"

#include <climits>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// EyeLike's output constraint T2: the numeric types and bool; bfloat16 from EyeLike-22.
bool IsEyeLikeType(DataType t, bool with_bfloat16) {
  return t == DataType::kBool || t == DataType::kFloat16 || t == DataType::kFloat ||
         t == DataType::kDouble || IsInteger(t) || (with_bfloat16 && t == DataType::kBFloat16);
}

}  // namespace

StatusOr<Tensor> EyeLike(const Shape& shape, DataType dtype, int64_t k) {
  if (shape.rank() != 2) {
    return InvalidArgument("input must be 2-D, got shape " + shape.ToString());
  }
  if (!IsEyeLikeType(dtype, /*with_bfloat16=*/true)) {
    return InvalidArgument(std::string("EyeLike cannot produce ") + DataTypeShortName(dtype));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(dtype, shape));  // zero-filled
  const int64_t rows = shape[0];
  const int64_t cols = shape[1];
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* out = y.mutable_data<T>();
    for (int64_t i = 0; i < rows; ++i) {
      // j = i + k, computed only when it lies in [0, cols) so that no sum overflows.
      if (k >= cols - i || k < -i) continue;
      if constexpr (std::is_same_v<T, bool>) {
        out[i * cols + i + k] = true;
      } else if constexpr (kIsFloat<T> || kIsInt<T>) {
        out[i * cols + i + k] = FromCompute<T>(1);
      }
    }
    return OkStatus();
  }));
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> EyeLikeKernel::Create(const KernelInfo& info) {
  std::optional<DataType> dtype;
  if (info.has_attribute("dtype")) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t code, info.GetInt("dtype"));
    if (code < 0 || code > INT32_MAX || !IsValidDataType(static_cast<int32_t>(code)) ||
        !IsEyeLikeType(static_cast<DataType>(code), info.since_version() >= 22)) {
      return InvalidArgument("attribute 'dtype' = " + std::to_string(code) +
                             " is not a type EyeLike can produce in this op version (numbers and "
                             "bool, bfloat16 from version 22)");
    }
    dtype = static_cast<DataType>(code);
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t k, info.GetInt("k", 0));
  return std::unique_ptr<OpKernel>(new EyeLikeKernel(dtype, k));
}

Status EyeLikeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, EyeLike(x->shape(), dtype_.value_or(x->dtype()), k_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
