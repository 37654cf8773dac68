// Helpers shared by the quantization, resampling and indexing kernels.
#include "runtime/provider/common/indexing_util.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate {

StatusOr<std::vector<double>> FloatsOf(const Tensor& t, const char* name) {
  std::vector<double> out(static_cast<size_t>(t.NumElements()));
  Status st = VisitFloatTypes(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) out[i] = LoadAsDouble(p[i]);
    return OkStatus();
  });
  if (!st.ok()) {
    return InvalidArgument(std::string("'") + name + "' must be a float tensor, got " +
                           DataTypeShortName(t.dtype()));
  }
  return out;
}

StatusOr<double> FloatScalarOf(const Tensor& t, const char* name) {
  if (t.NumElements() != 1) {
    return InvalidArgument(std::string("'") + name + "' must hold exactly one value, got shape " +
                           t.shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, FloatsOf(t, name));
  return v[0];
}

StatusOr<int64_t> IntScalarOf(const Tensor& t, const char* name) {
  if (t.NumElements() != 1) {
    return InvalidArgument(std::string("'") + name + "' must hold exactly one value, got shape " +
                           t.shape().ToString());
  }
  if (!IsInteger(t.dtype())) {
    return InvalidArgument(std::string("'") + name + "' must be an integer tensor, got " +
                           DataTypeShortName(t.dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> v, ToInt64s(t, name));
  return v[0];
}

StatusOr<Tensor> TakeElements(const Tensor& src, const Shape& shape,
                              const std::vector<int64_t>& from, const Tensor* fill) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, NewTensor(src.dtype(), shape));
  ONNXGATE_CHECK(static_cast<int64_t>(from.size()) == out.NumElements());
  if (fill != nullptr && (fill->dtype() != src.dtype() || fill->NumElements() != 1)) {
    return InvalidArgument(std::string("the fill value must be one ") +
                           DataTypeShortName(src.dtype()) + " element, got " +
                           DataTypeShortName(fill->dtype()) + fill->shape().ToString());
  }
  Status st = VisitAllTypes(src.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* in = src.data<T>();
    T* o = out.mutable_data<T>();
    for (size_t i = 0; i < from.size(); ++i) {
      if (from[i] >= 0) {
        o[i] = in[from[i]];
      } else if (fill != nullptr) {
        o[i] = fill->data<T>()[0];
      } else {
        return Internal("element " + std::to_string(i) + " has no source and there is no fill");
      }
    }
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  return out;
}

std::vector<int64_t> FlatIndexFromAxisMaps(const Shape& in,
                                           const std::vector<std::vector<int64_t>>& maps) {
  const size_t rank = maps.size();
  ONNXGATE_CHECK(rank == in.rank());
  int64_t count = 1;
  for (const auto& m : maps) count *= static_cast<int64_t>(m.size());
  std::vector<int64_t> from;
  from.reserve(static_cast<size_t>(count));
  if (count == 0) return from;
  const std::vector<int64_t> strides = in.Strides();
  std::vector<size_t> o(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t index = 0;
    for (size_t d = 0; d < rank && index >= 0; ++d) {
      const int64_t c = maps[d][o[d]];
      index = c < 0 ? -1 : index + c * strides[d];
    }
    from.push_back(index);
    for (size_t d = rank; d-- > 0;) {  // odometer step over the output
      if (++o[d] < maps[d].size()) break;
      o[d] = 0;
    }
  }
  return from;
}

}  // namespace onnxgate
