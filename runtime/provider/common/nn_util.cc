// Helpers of the providers' kernels that compute in double: double buffers, broadcasting, dims.
#include "runtime/provider/common/nn_util.h"

#include <type_traits>

namespace onnxgate {

namespace {

template <typename T>
double Widen(T v) {
  if constexpr (std::is_class_v<T>) {  // float16, bfloat16 and the 8-bit floats
    return static_cast<double>(v.ToFloat());
  } else {
    return static_cast<double>(v);
  }
}

template <typename T>
T Narrow(double v) {
  if constexpr (std::is_class_v<T>) {  // rounds to nearest even; the 8-bit floats saturate
    return T::FromFloat(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Calls fn(T{}) for the types the nn kernels compute with: the float family, the four FLOAT8
// types (Dropout-22) and integers.
template <typename Fn>
Status VisitWidenable(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DataType::kFloat16: return fn(Float16{});
    case DataType::kBFloat16: return fn(BFloat16{});
    case DataType::kFloat8E4M3FN: return fn(Float8E4M3FN{});
    case DataType::kFloat8E4M3FNUZ: return fn(Float8E4M3FNUZ{});
    case DataType::kFloat8E5M2: return fn(Float8E5M2{});
    case DataType::kFloat8E5M2FNUZ: return fn(Float8E5M2FNUZ{});
    default: return VisitNumericTypes(dtype, fn);
  }
}

}  // namespace

StatusOr<std::vector<double>> ToDoubles(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.NumElements()));
  Status st = VisitWidenable(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* data = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = Widen(data[i]);
    return OkStatus();
  });
  if (!st.ok()) return st;
  return out;
}

StatusOr<Tensor> FromDoubles(DataType dtype, const Shape& shape,
                             const std::vector<double>& values) {
  Tensor t(dtype, shape);
  ONNXGATE_CHECK(static_cast<int64_t>(values.size()) == t.NumElements());
  Status st = VisitWidenable(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* data = t.mutable_data<T>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = Narrow<T>(values[i]);
    return OkStatus();
  });
  if (!st.ok()) return st;
  return t;
}

StatusOr<std::vector<int64_t>> UnidirectionalBroadcastIndex(const Shape& from, const Shape& to) {
  auto fail = [&] {
    return InvalidArgument("shape " + from.ToString() + " cannot be broadcast to " + to.ToString());
  };
  if (from.rank() > to.rank()) return fail();
  const size_t offset = to.rank() - from.rank();
  // Stride of each `to` axis inside `from`: 0 where `from` is missing the axis or has a 1 there.
  std::vector<int64_t> from_strides(to.rank(), 0);
  const std::vector<int64_t> strides = from.Strides();
  for (size_t i = 0; i < from.rank(); ++i) {
    if (from[i] == to[offset + i]) {
      from_strides[offset + i] = strides[i];
    } else if (from[i] != 1) {
      return fail();
    }
  }
  std::vector<int64_t> index(static_cast<size_t>(to.NumElements()));
  std::vector<int64_t> pos(to.rank(), 0);
  int64_t src = 0;
  for (size_t flat = 0; flat < index.size(); ++flat) {
    index[flat] = src;
    // Advance the multi-index like an odometer, keeping `src` in step.
    for (size_t axis = to.rank(); axis-- > 0;) {
      if (++pos[axis] < to[axis]) {
        src += from_strides[axis];
        break;
      }
      src -= from_strides[axis] * (to[axis] - 1);
      pos[axis] = 0;
    }
  }
  return index;
}

std::string DimsToString(const std::vector<int64_t>& dims) { return Shape(dims).ToString(); }

}  // namespace onnxgate
