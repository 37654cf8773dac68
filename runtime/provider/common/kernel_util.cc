// Shared helpers of every provider's kernels: output allocation, input access, int64 lists, axes.
#include "runtime/provider/common/kernel_util.h"

#include <algorithm>
#include <cmath>
#include <new>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate {

namespace {

StatusOr<Tensor> AllocateTensor(DataType dtype, const Shape& shape, bool cleared) {
  // Strings have no fixed size; count them as the size of their (empty) std::string objects.
  const int64_t elem = dtype == DataType::kString ? static_cast<int64_t>(sizeof(std::string))
                                                  : static_cast<int64_t>(DataTypeSize(dtype));
  Status valid = shape.Validate(kMaxOutputBytes / std::max<int64_t>(elem, 1));
  if (!valid.ok()) return valid.WithContext("output shape");
  try {
    return cleared ? Tensor(dtype, shape) : Tensor::Uninitialized(dtype, shape);
  } catch (const std::bad_alloc&) {
    return Unavailable("cannot allocate an output of shape " + shape.ToString() + " and type " +
                       DataTypeShortName(dtype));
  }
}

}  // namespace

StatusOr<Tensor> NewTensor(DataType dtype, const Shape& shape) {
  return AllocateTensor(dtype, shape, true);
}

StatusOr<Tensor> NewUninitializedTensor(DataType dtype, const Shape& shape) {
  return AllocateTensor(dtype, shape, false);
}

StatusOr<const Tensor*> GetInput(const KernelContext& ctx, size_t index, const char* name) {
  const Value* value = ctx.input(index);
  if (value == nullptr) {
    return InvalidArgument("input " + std::to_string(index) + " ('" + name + "') is missing");
  }
  if (!value->is_tensor()) {
    return InvalidArgument("input " + std::to_string(index) + " ('" + name +
                           "') must be a tensor, got " + value->TypeString());
  }
  return &value->tensor();
}

StatusOr<std::vector<int64_t>> ToInt64s(const Tensor& t, const char* name) {
  std::vector<int64_t> out(static_cast<size_t>(t.NumElements()));
  Status st = VisitArithmeticTypes(t.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* in = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      const double v = static_cast<double>(ToCompute(in[i]));
      if constexpr (kIsFloat<T>) {
        // Only the legacy schemas (Split-1, Tile-1) pass integer lists in float tensors.
        if (!(v == std::trunc(v)) || std::fabs(v) >= 9.2e18) {
          return InvalidArgument(std::string("'") + name + "' holds the non-integer value " +
                                 t.ElementToString(static_cast<int64_t>(i)));
        }
        out[i] = static_cast<int64_t>(v);
      } else {
        if constexpr (std::is_same_v<T, uint64_t>) {
          if (in[i] > static_cast<uint64_t>(INT64_MAX)) {
            return InvalidArgument(std::string("'") + name + "' holds " + std::to_string(in[i]) +
                                   ", beyond int64");
          }
        }
        out[i] = static_cast<int64_t>(in[i]);
      }
    }
    return OkStatus();
  });
  if (!st.ok()) {
    if (st.code() == StatusCode::kUnimplemented) {
      return InvalidArgument(std::string("'") + name + "' must hold integers, got " +
                             DataTypeShortName(t.dtype()));
    }
    return st;
  }
  return out;
}

StatusOr<std::vector<int64_t>> ToInt64List(const Tensor& t, const char* name, bool allow_scalar) {
  if (t.shape().rank() != 1 && !(allow_scalar && t.shape().rank() == 0)) {
    return InvalidArgument(std::string("'") + name + "' must be a 1-D tensor, got shape " +
                           t.shape().ToString());
  }
  return ToInt64s(t, name);
}

StatusOr<int64_t> NormalizeAxisOf(int64_t axis, int64_t rank, bool allow_negative,
                                  const char* name) {
  if (axis < 0 && !allow_negative) {
    return InvalidArgument(std::string(name) + " " + std::to_string(axis) +
                           " is negative, which this op version does not allow (opset 11 does)");
  }
  auto normalized = NormalizeAxis(axis, rank);
  if (!normalized.ok()) {
    return normalized.status().WithContext(std::string(name) + " for rank " + std::to_string(rank));
  }
  return normalized;
}

StatusOr<std::vector<int64_t>> NormalizeAxesOf(const std::vector<int64_t>& axes, int64_t rank,
                                               bool allow_negative, const char* name) {
  std::vector<int64_t> out;
  // NormalizeAxis lets a scalar take axis 0, so keep room for one dim.
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 1)), false);
  for (int64_t axis : axes) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis, rank, allow_negative, name));
    if (seen[static_cast<size_t>(a)]) {
      return InvalidArgument(std::string(name) + " " + ListToString(axes) + " name dim " +
                             std::to_string(a) + " twice");
    }
    seen[static_cast<size_t>(a)] = true;
    out.push_back(a);
  }
  return out;
}

std::string ListToString(const std::vector<int64_t>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(values[i]);
  }
  return s + "]";
}

}  // namespace onnxgate
