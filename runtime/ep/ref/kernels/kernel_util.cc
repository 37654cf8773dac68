// Shared helpers of the ref EP's elementwise and tensor kernels.
#include "runtime/ep/ref/kernels/kernel_util.h"

#include <algorithm>

namespace onnxgate::ref {

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
  if (t.dtype() == DataType::kInt64) {
    std::copy(t.data<int64_t>(), t.data<int64_t>() + out.size(), out.begin());
  } else if (t.dtype() == DataType::kInt32) {
    std::copy(t.data<int32_t>(), t.data<int32_t>() + out.size(), out.begin());
  } else {
    return InvalidArgument(std::string("'") + name + "' must be int64 or int32, got " +
                           DataTypeShortName(t.dtype()));
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
    ASSIGN_OR_RETURN(int64_t a, NormalizeAxisOf(axis, rank, allow_negative, name));
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

}  // namespace onnxgate::ref
