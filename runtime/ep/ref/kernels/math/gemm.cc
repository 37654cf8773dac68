// Gemm: general matrix multiply; float types in double through Eigen, integers exactly.
#include "runtime/ep/ref/kernels/math/gemm.h"

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <type_traits>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct GemmDims {
  int64_t m, k, n;
};

// alpha * op(A) x op(B) + beta * C in double; `c` is already broadcast to m x n (empty: none).
std::vector<double> GemmDouble(const GemmDims& d, const std::vector<double>& a, bool trans_a,
                               const std::vector<double>& b, bool trans_b,
                               const std::vector<double>& c, double alpha, double beta) {
  Eigen::Map<const RowMajorMatrix> am(a.data(), trans_a ? d.k : d.m, trans_a ? d.m : d.k);
  Eigen::Map<const RowMajorMatrix> bm(b.data(), trans_b ? d.n : d.k, trans_b ? d.k : d.n);
  RowMajorMatrix y(d.m, d.n);
  if (trans_a && trans_b) {
    y.noalias() = am.transpose() * bm.transpose();
  } else if (trans_a) {
    y.noalias() = am.transpose() * bm;
  } else if (trans_b) {
    y.noalias() = am * bm.transpose();
  } else {
    y.noalias() = am * bm;
  }
  y *= alpha;
  // As in the ONNX reference, beta == 0 drops C entirely (so an inf or NaN in C does not leak).
  if (!c.empty() && beta != 0) {
    y += beta * Eigen::Map<const RowMajorMatrix>(c.data(), d.m, d.n);
  }
  return std::vector<double>(y.data(), y.data() + y.size());
}

// The integer product op(A) x op(B), wrapping modulo 2^64 like fixed-width hardware.
template <typename T>
std::vector<uint64_t> ProductInteger(const GemmDims& d, const T* a, bool trans_a, const T* b,
                                     bool trans_b) {
  std::vector<uint64_t> y(static_cast<size_t>(d.m * d.n), 0);
  for (int64_t r = 0; r < d.m; ++r) {
    for (int64_t c = 0; c < d.n; ++c) {
      uint64_t sum = 0;
      for (int64_t j = 0; j < d.k; ++j) {
        T av = trans_a ? a[j * d.m + r] : a[r * d.k + j];
        T bv = trans_b ? b[c * d.k + j] : b[j * d.n + c];
        sum += static_cast<uint64_t>(av) * static_cast<uint64_t>(bv);
      }
      y[r * d.n + c] = sum;
    }
  }
  return y;
}

// Converts a double result to integer T: truncation toward zero, saturating at T's range
// (a plain cast of an out-of-range double is undefined behaviour).
template <typename T>
T SaturatingCast(double v) {
  if (std::isnan(v)) return T{0};
  if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) {
    return std::numeric_limits<T>::lowest();
  }
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> Gemm::Create(const KernelInfo& info) {
  bool c_must_match = false;
  if (info.since_version() < 7) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t broadcast, info.GetInt("broadcast", 0));
    c_must_match = broadcast == 0;
  }
  ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 1.0f));
  ONNXGATE_ASSIGN_OR_RETURN(float beta, info.GetFloat("beta", 1.0f));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t trans_a, info.GetInt("transA", 0));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t trans_b, info.GetInt("transB", 0));
  const bool c_optional = info.since_version() >= 11;
  if (!c_optional && !info.has_input(2)) {
    return InvalidArgument("input 'C' is required before Gemm-11");
  }
  return std::unique_ptr<OpKernel>(
      new Gemm(alpha, beta, trans_a != 0, trans_b != 0, c_optional, c_must_match));
}

Status Gemm::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  const Tensor* c = ctx.input_tensor(2);
  if (c == nullptr && !c_optional_) return InvalidArgument("Gemm: input 'C' is missing");
  if (a->shape().rank() != 2 || b->shape().rank() != 2) {
    return InvalidArgument("Gemm: A and B must be 2-D, got A " + a->shape().ToString() + " and B " +
                           b->shape().ToString());
  }
  const DataType dtype = a->dtype();
  if (b->dtype() != dtype || (c != nullptr && c->dtype() != dtype)) {
    return InvalidArgument("Gemm: A, B and C must share one element type");
  }
  GemmDims d;
  d.m = trans_a_ ? a->shape()[1] : a->shape()[0];
  d.k = trans_a_ ? a->shape()[0] : a->shape()[1];
  d.n = trans_b_ ? b->shape()[0] : b->shape()[1];
  const int64_t b_k = trans_b_ ? b->shape()[1] : b->shape()[0];
  if (b_k != d.k) {
    return InvalidArgument("Gemm: inner dims differ: op(A) of A " + a->shape().ToString() +
                           " has K = " + std::to_string(d.k) + ", op(B) of B " +
                           b->shape().ToString() + " has K = " + std::to_string(b_k));
  }
  const Shape out_shape{d.m, d.n};
  std::vector<int64_t> c_index;  // flat index into C for every output element
  if (c != nullptr && c_must_match_ && c->shape() != out_shape) {
    return InvalidArgument("Gemm: input 'C' must have shape " + out_shape.ToString() +
                           " without the broadcast attribute, got " + c->shape().ToString());
  }
  if (c != nullptr) {
    auto index = UnidirectionalBroadcastIndex(c->shape(), out_shape);
    if (!index.ok()) return index.status().WithContext("Gemm: input 'C'");
    c_index = std::move(index).value();
  }
  std::vector<double> cd;  // C broadcast to M x N, in double
  if (c != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> c_raw, ToDoubles(*c));
    cd.resize(c_index.size());
    for (size_t i = 0; i < c_index.size(); ++i) cd[i] = c_raw[c_index[i]];
  }

  if (IsFloatingPoint(dtype)) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> ad, ToDoubles(*a));
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> bd, ToDoubles(*b));
    std::vector<double> y = GemmDouble(d, ad, trans_a_, bd, trans_b_, cd, alpha_, beta_);
    ONNXGATE_ASSIGN_OR_RETURN(Tensor out, FromDoubles(dtype, out_shape, y));
    ctx.set_output(0, std::move(out));
    return OkStatus();
  }

  Tensor out(dtype, out_shape);
  Status st = VisitNumericTypes(dtype, [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) {
      std::vector<uint64_t> prod =
          ProductInteger<T>(d, a->data<T>(), trans_a_, b->data<T>(), trans_b_);
      T* y = out.mutable_data<T>();
      const bool exact = alpha_ == 1.0 && (beta_ == 1.0 || beta_ == 0.0 || c == nullptr);
      for (size_t i = 0; i < prod.size(); ++i) {
        if (exact) {
          // Integer arithmetic throughout, wrapping like the product itself.
          uint64_t v = prod[i];
          if (c != nullptr && beta_ != 0.0) v += static_cast<uint64_t>(c->data<T>()[c_index[i]]);
          y[i] = static_cast<T>(v);
        } else {
          // Non-unit alpha or beta are floats: apply them in double, then truncate.
          double p = static_cast<double>(static_cast<T>(prod[i]));
          double v = alpha_ * p + (cd.empty() || beta_ == 0.0 ? 0.0 : beta_ * cd[i]);
          y[i] = SaturatingCast<T>(v);
        }
      }
      return OkStatus();
    } else {
      return Internal("Gemm: unexpected non-integer type");
    }
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace onnxgate::ref
