// Elementwise functions of one tensor.
#include "runtime/ep/ref/kernels/math/unary_math.h"

#include <cmath>
#include <string>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// The function on a floating-point value; C is float or double.
template <UnaryOp kOp, typename C>
C ApplyFloat(C x, const UnaryParams& p) {
  const C alpha = static_cast<C>(p.alpha);
  if constexpr (kOp == UnaryOp::kAbs) return std::abs(x);
  if constexpr (kOp == UnaryOp::kAcos) return std::acos(x);
  if constexpr (kOp == UnaryOp::kAcosh) return std::acosh(x);
  if constexpr (kOp == UnaryOp::kAsin) return std::asin(x);
  if constexpr (kOp == UnaryOp::kAsinh) return std::asinh(x);
  if constexpr (kOp == UnaryOp::kAtan) return std::atan(x);
  if constexpr (kOp == UnaryOp::kAtanh) return std::atanh(x);
  if constexpr (kOp == UnaryOp::kCeil) return std::ceil(x);
  if constexpr (kOp == UnaryOp::kCelu) {
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); the second term is <= 0 exactly when x is.
    return x > 0 ? x : alpha * std::expm1(x / alpha);
  }
  if constexpr (kOp == UnaryOp::kCos) return std::cos(x);
  if constexpr (kOp == UnaryOp::kCosh) return std::cosh(x);
  if constexpr (kOp == UnaryOp::kElu) return x < 0 ? alpha * std::expm1(x) : x;
  if constexpr (kOp == UnaryOp::kErf) return std::erf(x);
  if constexpr (kOp == UnaryOp::kExp) return std::exp(x);
  if constexpr (kOp == UnaryOp::kFloor) return std::floor(x);
  if constexpr (kOp == UnaryOp::kGelu) {
    if (p.tanh_approximation) {
      // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
      const C k = std::sqrt(C(2) / C(3.14159265358979323846));
      return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
    }
    return C(0.5) * x * (C(1) + std::erf(x / std::sqrt(C(2))));
  }
  if constexpr (kOp == UnaryOp::kHardSigmoid) {
    C v = alpha * x + static_cast<C>(p.beta);
    return std::isnan(v) ? v : std::min(C(1), std::max(C(0), v));
  }
  if constexpr (kOp == UnaryOp::kHardSwish) {
    C v = x / C(6) + C(0.5);
    return std::isnan(v) ? v : x * std::min(C(1), std::max(C(0), v));
  }
  if constexpr (kOp == UnaryOp::kLeakyRelu) return x < 0 ? alpha * x : x;
  if constexpr (kOp == UnaryOp::kLog) return std::log(x);
  if constexpr (kOp == UnaryOp::kMish) {
    // x * tanh(softplus(x)), softplus written so that exp never overflows.
    const C softplus = x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    return x * std::tanh(softplus);
  }
  if constexpr (kOp == UnaryOp::kNeg) return -x;
  if constexpr (kOp == UnaryOp::kReciprocal) return C(1) / x;
  // `x < 0 ? 0 : x` keeps NaN as NaN, as numpy's maximum(x, 0) does.
  if constexpr (kOp == UnaryOp::kRelu) return x < 0 ? C(0) : x;
  // Round half to even, as numpy.round and the ONNX spec; the default FP environment rounds so.
  if constexpr (kOp == UnaryOp::kRound) return std::nearbyint(x);
  if constexpr (kOp == UnaryOp::kSelu) {
    return static_cast<C>(p.gamma) * (x > 0 ? x : alpha * std::expm1(x));
  }
  if constexpr (kOp == UnaryOp::kSigmoid) {
    // Two forms so that exp never overflows: for x >= 0 exp(-x) <= 1, else exp(x) < 1.
    if (x >= 0) return C(1) / (C(1) + std::exp(-x));
    C e = std::exp(x);
    return e / (C(1) + e);
  }
  if constexpr (kOp == UnaryOp::kSign) {
    if (std::isnan(x)) return x;
    return x > 0 ? C(1) : (x < 0 ? C(-1) : C(0));
  }
  if constexpr (kOp == UnaryOp::kSin) return std::sin(x);
  if constexpr (kOp == UnaryOp::kSinh) return std::sinh(x);
  if constexpr (kOp == UnaryOp::kSoftplus) {
    // log(1 + exp(x)) without overflow for large x.
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
  if constexpr (kOp == UnaryOp::kSoftsign) return x / (C(1) + std::abs(x));
  if constexpr (kOp == UnaryOp::kSqrt) return std::sqrt(x);
  if constexpr (kOp == UnaryOp::kSwish) {
    // x * sigmoid(alpha * x), the sigmoid in the form whose exp does not overflow.
    const C v = alpha * x;
    const C sigmoid = v >= 0 ? C(1) / (C(1) + std::exp(-v)) : std::exp(v) / (C(1) + std::exp(v));
    return x * sigmoid;
  }
  if constexpr (kOp == UnaryOp::kTan) return std::tan(x);
  if constexpr (kOp == UnaryOp::kTanh) return std::tanh(x);
  if constexpr (kOp == UnaryOp::kThresholdedRelu) return x > alpha ? x : C(0);
}

// The function on an integer value, for the ops that have integer forms.
template <UnaryOp kOp, typename T>
T ApplyInteger(T x) {
  if constexpr (kOp == UnaryOp::kAbs) {
    if constexpr (std::is_signed_v<T>) return x < 0 ? WrapNeg(x) : x;
    return x;
  }
  if constexpr (kOp == UnaryOp::kNeg) return WrapNeg(x);
  if constexpr (kOp == UnaryOp::kRelu) return x < 0 ? T{0} : x;
  if constexpr (kOp == UnaryOp::kSign) return static_cast<T>((x > 0) - (x < 0));
  if constexpr (kOp == UnaryOp::kErf) return SaturatingCast<T>(std::erf(static_cast<double>(x)));
}

template <UnaryOp kOp, typename T>
void MapElements(const Tensor& x, Tensor* y, const UnaryParams& p) {
  const T* in = x.data<T>();
  T* out = y->mutable_data<T>();
  for (int64_t i = 0, n = x.NumElements(); i < n; ++i) {
    if constexpr (kIsInt<T>) {
      out[i] = ApplyInteger<kOp, T>(in[i]);
    } else {
      out[i] = FromCompute<T>(ApplyFloat<kOp, ComputeType<T>>(ToCompute(in[i]), p));
    }
  }
}

// Reads the op's attributes with their ONNX defaults.
StatusOr<UnaryParams> ReadParams(UnaryOp op, const KernelInfo& info) {
  UnaryParams p;
  if (op == UnaryOp::kLeakyRelu) {
    ONNXGATE_ASSIGN_OR_RETURN(p.alpha, info.GetFloat("alpha", 0.01f));
  } else if (op == UnaryOp::kElu || op == UnaryOp::kCelu || op == UnaryOp::kThresholdedRelu ||
             op == UnaryOp::kSwish) {
    ONNXGATE_ASSIGN_OR_RETURN(p.alpha, info.GetFloat("alpha", 1.0f));
  } else if (op == UnaryOp::kSelu) {
    ONNXGATE_ASSIGN_OR_RETURN(p.alpha, info.GetFloat("alpha", 1.67326319217681884765625f));
    ONNXGATE_ASSIGN_OR_RETURN(p.gamma, info.GetFloat("gamma", 1.05070102214813232421875f));
  } else if (op == UnaryOp::kHardSigmoid) {
    ONNXGATE_ASSIGN_OR_RETURN(p.alpha, info.GetFloat("alpha", 0.2f));
    ONNXGATE_ASSIGN_OR_RETURN(p.beta, info.GetFloat("beta", 0.5f));
  }
  if (op == UnaryOp::kGelu) {
    ONNXGATE_ASSIGN_OR_RETURN(std::string approximate, info.GetString("approximate", "none"));
    if (approximate != "none" && approximate != "tanh") {
      return InvalidArgument("attribute 'approximate' must be \"none\" or \"tanh\", got \"" +
                             approximate + "\"");
    }
    p.tanh_approximation = approximate == "tanh";
  }
  if (op == UnaryOp::kCelu && p.alpha == 0.0f) {
    return InvalidArgument("Celu's alpha must not be 0");
  }
  return p;
}

}  // namespace

template <UnaryOp kOp>
StatusOr<Tensor> UnaryMath(const Tensor& x, const UnaryParams& params) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));
  auto map = [&](auto tag) {
    MapElements<kOp, decltype(tag)>(x, &y, params);
    return OkStatus();
  };
  if constexpr (UnaryAcceptsIntegers(kOp)) {
    ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), map));
  } else {
    ONNXGATE_RETURN_IF_ERROR(VisitFloatTypes(x.dtype(), map));
  }
  return y;
}

template <UnaryOp kOp>
StatusOr<std::unique_ptr<OpKernel>> UnaryMathKernel<kOp>::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(UnaryParams params, ReadParams(kOp, info));
  return std::unique_ptr<OpKernel>(new UnaryMathKernel(params));
}

template <UnaryOp kOp>
Status UnaryMathKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, UnaryMath<kOp>(*x, params_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

#define ONNXGATE_INSTANTIATE_UNARY(op)                                                 \
  template StatusOr<Tensor> UnaryMath<UnaryOp::op>(const Tensor&, const UnaryParams&); \
  template class UnaryMathKernel<UnaryOp::op>;
ONNXGATE_INSTANTIATE_UNARY(kAbs)
ONNXGATE_INSTANTIATE_UNARY(kAcos)
ONNXGATE_INSTANTIATE_UNARY(kAcosh)
ONNXGATE_INSTANTIATE_UNARY(kAsin)
ONNXGATE_INSTANTIATE_UNARY(kAsinh)
ONNXGATE_INSTANTIATE_UNARY(kAtan)
ONNXGATE_INSTANTIATE_UNARY(kAtanh)
ONNXGATE_INSTANTIATE_UNARY(kCeil)
ONNXGATE_INSTANTIATE_UNARY(kCelu)
ONNXGATE_INSTANTIATE_UNARY(kCos)
ONNXGATE_INSTANTIATE_UNARY(kCosh)
ONNXGATE_INSTANTIATE_UNARY(kElu)
ONNXGATE_INSTANTIATE_UNARY(kErf)
ONNXGATE_INSTANTIATE_UNARY(kExp)
ONNXGATE_INSTANTIATE_UNARY(kFloor)
ONNXGATE_INSTANTIATE_UNARY(kGelu)
ONNXGATE_INSTANTIATE_UNARY(kHardSigmoid)
ONNXGATE_INSTANTIATE_UNARY(kHardSwish)
ONNXGATE_INSTANTIATE_UNARY(kLeakyRelu)
ONNXGATE_INSTANTIATE_UNARY(kLog)
ONNXGATE_INSTANTIATE_UNARY(kMish)
ONNXGATE_INSTANTIATE_UNARY(kNeg)
ONNXGATE_INSTANTIATE_UNARY(kReciprocal)
ONNXGATE_INSTANTIATE_UNARY(kRelu)
ONNXGATE_INSTANTIATE_UNARY(kRound)
ONNXGATE_INSTANTIATE_UNARY(kSelu)
ONNXGATE_INSTANTIATE_UNARY(kSigmoid)
ONNXGATE_INSTANTIATE_UNARY(kSign)
ONNXGATE_INSTANTIATE_UNARY(kSin)
ONNXGATE_INSTANTIATE_UNARY(kSinh)
ONNXGATE_INSTANTIATE_UNARY(kSoftplus)
ONNXGATE_INSTANTIATE_UNARY(kSoftsign)
ONNXGATE_INSTANTIATE_UNARY(kSqrt)
ONNXGATE_INSTANTIATE_UNARY(kSwish)
ONNXGATE_INSTANTIATE_UNARY(kTan)
ONNXGATE_INSTANTIATE_UNARY(kTanh)
ONNXGATE_INSTANTIATE_UNARY(kThresholdedRelu)
#undef ONNXGATE_INSTANTIATE_UNARY

}  // namespace onnxgate::ref
