// GatherElements, ScatterElements and Scatter.
#include "runtime/ep/ref/kernels/tensor/gather_scatter_elements.h"

#include <cmath>
#include <complex>
#include <type_traits>

#include "runtime/provider/common/compute_type.h"
#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

template <typename T>
inline constexpr bool kIsComplex =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// The larger (`max`) or smaller of a and b; NaN wins, as numpy's maximum and minimum do.
// Complex numbers have no order; ScatterInto rejects them before this is reached.
template <typename T>
T Extreme(T a, T b, bool max) {
  if constexpr (kIsComplex<T>) {
    return b;
  } else if constexpr (std::is_same_v<T, bool>) {
    return max ? (a || b) : (a && b);
  } else if constexpr (kIsHalf<T>) {
    const float fa = a.ToFloat(), fb = b.ToFloat();
    if (std::isnan(fa)) return a;
    if (std::isnan(fb)) return b;
    return (max ? fb > fa : fb < fa) ? b : a;
  } else {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
    }
    return (max ? b > a : b < a) ? b : a;
  }
}

template <typename T>
T Combine(T old, T update, ScatterReduction reduction) {
  if (reduction == ScatterReduction::kNone) return update;
  if (reduction == ScatterReduction::kMax || reduction == ScatterReduction::kMin) {
    return Extreme(old, update, reduction == ScatterReduction::kMax);
  }
  const bool add = reduction == ScatterReduction::kAdd;
  if constexpr (std::is_same_v<T, bool>) {
    return add ? (old || update) : (old && update);
  } else if constexpr (kIsInt<T>) {
    return add ? WrapAdd(old, update) : WrapMul(old, update);
  } else if constexpr (kIsHalf<T>) {
    const float a = old.ToFloat(), b = update.ToFloat();
    return T::FromFloat(add ? a + b : a * b);
  } else {
    return add ? old + update : old * update;
  }
}

// For every element of `indices` (same rank as `data`), the flat index into data it addresses:
// its own coordinates with the one on `axis` replaced by the index value.
StatusOr<std::vector<int64_t>> ElementTargets(const Shape& data, const Tensor& indices,
                                              int64_t axis, bool allow_negative) {
  const Shape& is = indices.shape();
  if (is.rank() != data.rank()) {
    return InvalidArgument("indices " + is.ToString() + " must have the rank of data " +
                           data.ToString());
  }
  for (size_t d = 0; d < is.rank(); ++d) {
    if (static_cast<int64_t>(d) != axis && is[d] > data[d]) {
      return InvalidArgument("dim " + std::to_string(d) + " of indices " + is.ToString() +
                             " exceeds that of data " + data.ToString());
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, IndexValuesOf(indices, "indices"));
  const std::vector<int64_t> data_strides = data.Strides();
  const int64_t size = data[axis];
  std::vector<int64_t> coord(is.rank(), 0);
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t v = idx[i];
    if (v < -size || v >= size || (v < 0 && !allow_negative)) {
      return InvalidArgument(
          "index " + std::to_string(v) + " (element " + std::to_string(i) +
          " of indices) is out of range for axis " + std::to_string(axis) + " of size " +
          std::to_string(size) +
          (v < 0 && !allow_negative && v >= -size ? "; negative indices exist from opset 11" : ""));
    }
    if (v < 0) v += size;
    int64_t flat = 0;
    for (size_t d = 0; d < coord.size(); ++d) {
      flat += (static_cast<int64_t>(d) == axis ? v : coord[d]) * data_strides[d];
    }
    idx[i] = flat;
    for (size_t d = coord.size(); d-- > 0;) {
      if (++coord[d] < is[d]) break;
      coord[d] = 0;
    }
  }
  return idx;
}

}  // namespace

StatusOr<ScatterReduction> ParseScatterReduction(const std::string& name, bool min_max) {
  if (name == "none") return ScatterReduction::kNone;
  if (name == "add") return ScatterReduction::kAdd;
  if (name == "mul") return ScatterReduction::kMul;
  if (min_max && name == "max") return ScatterReduction::kMax;
  if (min_max && name == "min") return ScatterReduction::kMin;
  if (!min_max && (name == "max" || name == "min")) {
    return InvalidArgument("reduction '" + name + "' exists from opset 18");
  }
  return InvalidArgument(std::string("reduction must be none, add, mul") +
                         (min_max ? ", max or min" : " or (from opset 18) max, min") + ", got '" +
                         name + "'");
}

StatusOr<std::vector<int64_t>> IndexValuesOf(const Tensor& indices, const char* name) {
  if (indices.dtype() != DataType::kInt32 && indices.dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("'") + name + "' must be int32 or int64, got " +
                           DataTypeShortName(indices.dtype()));
  }
  return ToInt64s(indices, name);
}

Status ScatterInto(Tensor* out, const std::vector<int64_t>& targets, const Tensor& updates,
                   ScatterReduction reduction) {
  ONNXGATE_CHECK(out->dtype() == updates.dtype());
  ONNXGATE_CHECK(static_cast<int64_t>(targets.size()) == updates.NumElements());
  return VisitAllTypes(out->dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    T* o = out->mutable_data<T>();
    const T* u = updates.data<T>();
    if constexpr (std::is_same_v<T, std::string>) {
      if (reduction != ScatterReduction::kNone) {
        return InvalidArgument("string tensors take no reduction");
      }
    }
    if constexpr (kIsComplex<T>) {
      if (reduction == ScatterReduction::kMax || reduction == ScatterReduction::kMin) {
        return InvalidArgument("complex numbers have no order for a max or min reduction");
      }
    }
    for (size_t i = 0; i < targets.size(); ++i) {
      if constexpr (std::is_same_v<T, std::string>) {
        o[targets[i]] = u[i];
      } else {
        o[targets[i]] = Combine<T>(o[targets[i]], u[i], reduction);
      }
    }
    return OkStatus();
  });
}

StatusOr<Tensor> GatherElements(const Tensor& data, const Tensor& indices, int64_t axis,
                                bool allow_negative_indices) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> from,
                            ElementTargets(data.shape(), indices, axis, allow_negative_indices));
  return TakeElements(data, indices.shape(), from);
}

StatusOr<Tensor> ScatterElements(const Tensor& data, const Tensor& indices, const Tensor& updates,
                                 int64_t axis, ScatterReduction reduction,
                                 bool allow_negative_indices) {
  if (updates.shape() != indices.shape()) {
    return InvalidArgument("updates " + updates.shape().ToString() +
                           " must have the shape of indices " + indices.shape().ToString());
  }
  if (updates.dtype() != data.dtype()) {
    return InvalidArgument(std::string("updates must have data's type ") +
                           DataTypeShortName(data.dtype()) + ", got " +
                           DataTypeShortName(updates.dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> targets,
                            ElementTargets(data.shape(), indices, axis, allow_negative_indices));
  Tensor out = data.Clone();
  ONNXGATE_RETURN_IF_ERROR(ScatterInto(&out, targets, updates, reduction));
  return out;
}

StatusOr<std::unique_ptr<OpKernel>> GatherElementsKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 0));
  return std::unique_ptr<OpKernel>(new GatherElementsKernel(axis));
}

Status GatherElementsKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 1, "indices"));
  const int64_t rank = static_cast<int64_t>(data->shape().rank());
  if (rank == 0) return InvalidArgument("data must have rank >= 1, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            GatherElements(*data, *indices, axis, /*allow_negative_indices=*/true));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> ScatterElementsKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 0));
  ScatterReduction reduction = ScatterReduction::kNone;
  if (info.has_attribute("reduction")) {
    if (info.op_type() != "ScatterElements" || info.since_version() < 16) {
      return InvalidArgument("'reduction' exists from ScatterElements-16");
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::string name, info.GetString("reduction"));
    auto parsed = ParseScatterReduction(name, info.since_version() >= 18);
    if (!parsed.ok()) return parsed.status();
    reduction = *parsed;
  }
  // Scatter-9 documents indices in [0, s) only; ScatterElements-11 adds negative indices.
  const bool negative = info.op_type() == "ScatterElements";
  return std::unique_ptr<OpKernel>(new ScatterElementsKernel(axis, reduction, negative));
}

Status ScatterElementsKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 1, "indices"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* updates, GetInput(ctx, 2, "updates"));
  const int64_t rank = static_cast<int64_t>(data->shape().rank());
  if (rank == 0) return InvalidArgument("data must have rank >= 1, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, /*allow_negative=*/true));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ScatterElements(*data, *indices, *updates, axis, reduction_,
                                                      allow_negative_indices_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
