// The Reduce* family.
#include "runtime/ep/ref/kernels/reduction/reduce.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// One reduced value of a float type: the elements are in[base + offsets[k]].
template <typename T>
T ReduceFloat(ReduceOp op, const T* in, int64_t base, const std::vector<int64_t>& offsets) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  auto at = [&](size_t k) { return static_cast<double>(ToCompute(in[base + offsets[k]])); };
  const size_t n = offsets.size();
  double acc = 0;
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean:
    case ReduceOp::kLogSum:
      for (size_t k = 0; k < n; ++k) acc += at(k);
      if (op == ReduceOp::kMean) acc /= static_cast<double>(n);  // 0/0 is NaN for an empty set
      if (op == ReduceOp::kLogSum) acc = std::log(acc);
      break;
    case ReduceOp::kMax:
    case ReduceOp::kMin: {
      const bool is_max = op == ReduceOp::kMax;
      acc = is_max ? -kInf : kInf;
      for (size_t k = 0; k < n; ++k) {
        const double v = at(k);
        if (std::isnan(v)) {
          acc = v;  // NaN propagates, as numpy's max and min do
          break;
        }
        if (is_max ? v > acc : v < acc) acc = v;
      }
      break;
    }
    case ReduceOp::kProd:
      acc = 1;
      for (size_t k = 0; k < n; ++k) acc *= at(k);
      break;
    case ReduceOp::kL1:
      for (size_t k = 0; k < n; ++k) acc += std::fabs(at(k));
      break;
    case ReduceOp::kL2:
    case ReduceOp::kSumSquare:
      for (size_t k = 0; k < n; ++k) acc += at(k) * at(k);
      if (op == ReduceOp::kL2) acc = std::sqrt(acc);
      break;
    case ReduceOp::kLogSumExp: {
      // Shift by the maximum so that large inputs do not overflow exp(). With an infinite or
      // NaN maximum (or no elements) the unshifted formula already gives the right answer.
      double max = -kInf;
      for (size_t k = 0; k < n; ++k) {
        const double v = at(k);
        if (std::isnan(v) || v > max) max = v;
        if (std::isnan(v)) break;
      }
      const double shift = std::isfinite(max) ? max : 0;
      for (size_t k = 0; k < n; ++k) acc += std::exp(at(k) - shift);
      acc = shift + std::log(acc);
      break;
    }
  }
  return FromCompute<T>(static_cast<ComputeType<T>>(acc));
}

// One reduced value of an integer type.
template <typename T>
T ReduceInteger(ReduceOp op, const T* in, int64_t base, const std::vector<int64_t>& offsets) {
  auto at = [&](size_t k) { return in[base + offsets[k]]; };
  const size_t n = offsets.size();
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kL1:
    case ReduceOp::kSumSquare: {
      T acc = 0;
      for (size_t k = 0; k < n; ++k) {
        T v = at(k);
        if constexpr (std::is_signed_v<T>) {
          if (op == ReduceOp::kL1 && v < 0) v = WrapNeg(v);
        }
        if (op == ReduceOp::kSumSquare) v = WrapMul(v, v);
        acc = WrapAdd(acc, v);
      }
      return acc;
    }
    case ReduceOp::kProd: {
      T acc = 1;
      for (size_t k = 0; k < n; ++k) acc = WrapMul(acc, at(k));
      return acc;
    }
    case ReduceOp::kMax:
    case ReduceOp::kMin: {
      const bool is_max = op == ReduceOp::kMax;
      T acc = is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
      for (size_t k = 0; k < n; ++k) {
        if (is_max ? at(k) > acc : at(k) < acc) acc = at(k);
      }
      return acc;
    }
    case ReduceOp::kMean: {
      // long double holds every int64 exactly, so the sum of a row does not round early.
      long double sum = 0;
      for (size_t k = 0; k < n; ++k) sum += static_cast<long double>(at(k));
      return SaturatingCast<T>(static_cast<double>(sum / static_cast<long double>(n)));
    }
    case ReduceOp::kL2:
    case ReduceOp::kLogSum:
    case ReduceOp::kLogSumExp: {
      double acc = 0;
      for (size_t k = 0; k < n; ++k) {
        const double v = static_cast<double>(at(k));
        acc += op == ReduceOp::kL2 ? v * v : op == ReduceOp::kLogSum ? v : std::exp(v);
      }
      return SaturatingCast<T>(op == ReduceOp::kL2 ? std::sqrt(acc) : std::log(acc));
    }
  }
  return 0;
}

}  // namespace

namespace {

// Reduces `x` over the dims marked in `reduced` (one flag per dim). With no dim marked every
// output element is its input reduced as a set of one, which is what the composite reductions'
// function bodies give when the summation step becomes the identity.
StatusOr<Tensor> ReduceMarked(ReduceOp op, const Tensor& x, const std::vector<bool>& reduced,
                              bool keepdims) {
  const std::vector<int64_t>& dims = x.shape().dims();
  const std::vector<int64_t> strides = x.shape().Strides();
  // The kept dims walk the output in row-major order; the reduced dims walk one output
  // element's inputs.
  std::vector<int64_t> kept_dims, kept_strides, red_dims, red_strides, out_dims;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (reduced[d]) {
      red_dims.push_back(dims[d]);
      red_strides.push_back(strides[d]);
      if (keepdims) out_dims.push_back(1);
    } else {
      kept_dims.push_back(dims[d]);
      kept_strides.push_back(strides[d]);
      out_dims.push_back(dims[d]);
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), Shape(out_dims)));
  if (y.NumElements() == 0) return y;
  std::vector<int64_t> offsets;
  ForEachStrided(red_dims, {red_strides}, {0},
                 [&](int64_t, const int64_t* off) { offsets.push_back(off[0]); });
  if (x.dtype() == DataType::kBool) {
    if (op != ReduceOp::kMax && op != ReduceOp::kMin) {
      return Unimplemented("only ReduceMax and ReduceMin take bool inputs");
    }
    // False < True: the maximum is true when any element is, the minimum when all are.
    const bool is_max = op == ReduceOp::kMax;
    const bool* in = x.data<bool>();
    bool* out = y.mutable_data<bool>();
    ForEachStrided(kept_dims, {kept_strides}, {0}, [&](int64_t i, const int64_t* base) {
      bool acc = !is_max;
      for (int64_t off : offsets) {
        if (in[base[0] + off] == is_max) {
          acc = is_max;
          break;
        }
      }
      out[i] = acc;
    });
    return y;
  }
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    ForEachStrided(kept_dims, {kept_strides}, {0}, [&](int64_t i, const int64_t* base) {
      if constexpr (kIsFloat<T>) {
        out[i] = ReduceFloat<T>(op, in, base[0], offsets);
      } else {
        out[i] = ReduceInteger<T>(op, in, base[0], offsets);
      }
    });
    return OkStatus();
  }));
  return y;
}

}  // namespace

StatusOr<Tensor> Reduce(ReduceOp op, const Tensor& x, const std::vector<int64_t>& axes,
                        bool keepdims) {
  const size_t rank = x.shape().rank();
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes) {
    ONNXGATE_CHECK(a >= 0 && a < static_cast<int64_t>(rank));
    reduced[static_cast<size_t>(a)] = true;
  }
  return ReduceMarked(op, x, reduced, keepdims);
}

StatusOr<Tensor> ReduceEachElement(ReduceOp op, const Tensor& x) {
  return ReduceMarked(op, x, std::vector<bool>(x.shape().rank(), false), /*keepdims=*/true);
}

template <ReduceOp kOp>
StatusOr<std::unique_ptr<OpKernel>> ReduceKernel<kOp>::Create(const KernelInfo& info) {
  Options o;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t keepdims, info.GetInt("keepdims", 1));
  o.keepdims = keepdims != 0;
  o.allow_negative_axes = info.since_version() >= 11;
  o.axes_input = info.since_version() >= (kOp == ReduceOp::kSum ? 13 : 18);
  if (o.axes_input) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t noop, info.GetInt("noop_with_empty_axes", 0));
    o.noop_with_empty_axes = noop != 0;
  } else if (info.has_attribute("axes")) {
    ONNXGATE_ASSIGN_OR_RETURN(o.axes, info.GetInts("axes"));
  }
  return std::unique_ptr<OpKernel>(new ReduceKernel(std::move(o)));
}

template <ReduceOp kOp>
Status ReduceKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  std::vector<int64_t> axes;
  if (options_.axes_input) {
    if (ctx.has_input(1)) {
      ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "axes"));
      ONNXGATE_ASSIGN_OR_RETURN(axes, ToInt64List(*t, "axes"));
    }
    if (axes.empty() && options_.noop_with_empty_axes) {
      // Only the summation step is skipped: ReduceSumSquare still squares, ReduceL1 takes the
      // absolute value, ReduceLogSum the log (ONNX's function bodies of these ops).
      ONNXGATE_ASSIGN_OR_RETURN(Tensor y, ReduceEachElement(kOp, *x));
      ctx.set_output(0, std::move(y));
      return OkStatus();
    }
  } else if (options_.axes.has_value()) {
    axes = *options_.axes;
  }
  const int64_t rank = static_cast<int64_t>(x->shape().rank());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                            NormalizeAxesOf(axes, rank, options_.allow_negative_axes));
  if (rank == 0) normalized.clear();  // a scalar reduces to itself whatever axis 0 says
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Reduce(kOp, *x, normalized, options_.keepdims));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

template class ReduceKernel<ReduceOp::kSum>;
template class ReduceKernel<ReduceOp::kMean>;
template class ReduceKernel<ReduceOp::kMax>;
template class ReduceKernel<ReduceOp::kMin>;
template class ReduceKernel<ReduceOp::kProd>;
template class ReduceKernel<ReduceOp::kL1>;
template class ReduceKernel<ReduceOp::kL2>;
template class ReduceKernel<ReduceOp::kLogSum>;
template class ReduceKernel<ReduceOp::kLogSumExp>;
template class ReduceKernel<ReduceOp::kSumSquare>;

}  // namespace onnxgate::ref
