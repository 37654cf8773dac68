// Add, Sub, Mul, Div and Pow.
#include "runtime/ep/ref/kernels/math/binary_arithmetic.h"

#include <cmath>
#include <functional>

#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

Status CheckSameType(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) {
    return InvalidArgument(std::string("A and B must have one element type, got ") +
                           DataTypeShortName(a.dtype()) + " and " + DataTypeShortName(b.dtype()));
  }
  return OkStatus();
}

// The integer quotient, truncated toward zero. The caller has ruled out b == 0.
template <typename T>
T IntegerDivide(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    // INT_MIN / -1 overflows in C++; in two's complement it wraps back to INT_MIN.
    if (b == -1) return WrapNeg(a);
  }
  return static_cast<T>(a / b);
}

// Floating-point elements: computed in ComputeType<T> (float for float16/bfloat16), rounded once.
template <typename T, typename F>
void FloatLoop(const Tensor& a, const Tensor& b, Tensor* y, F f) {
  BroadcastBinary<T, T, T>(
      a, b, y, [&f](T x, T z) { return FromCompute<T>(f(ToCompute(x), ToCompute(z))); });
}

template <typename T>
Status ArithmeticLoop(ArithmeticOp op, const Tensor& a, const Tensor& b, Tensor* y) {
  if constexpr (kIsInt<T>) {
    switch (op) {
      case ArithmeticOp::kAdd: BroadcastBinary<T, T, T>(a, b, y, WrapAdd<T>); break;
      case ArithmeticOp::kSub: BroadcastBinary<T, T, T>(a, b, y, WrapSub<T>); break;
      case ArithmeticOp::kMul: BroadcastBinary<T, T, T>(a, b, y, WrapMul<T>); break;
      case ArithmeticOp::kDiv: {
        bool zero_divisor = false;
        BroadcastBinary<T, T, T>(a, b, y, [&zero_divisor](T x, T z) {
          if (z == 0) {
            zero_divisor = true;
            return T{0};
          }
          return IntegerDivide(x, z);
        });
        if (zero_divisor) {
          return InvalidArgument(std::string("integer division by zero (B of type ") +
                                 DataTypeShortName(b.dtype()) + " holds a 0)");
        }
        break;
      }
    }
  } else {
    using C = ComputeType<T>;
    switch (op) {
      case ArithmeticOp::kAdd: FloatLoop<T>(a, b, y, std::plus<C>()); break;
      case ArithmeticOp::kSub: FloatLoop<T>(a, b, y, std::minus<C>()); break;
      case ArithmeticOp::kMul: FloatLoop<T>(a, b, y, std::multiplies<C>()); break;
      case ArithmeticOp::kDiv: FloatLoop<T>(a, b, y, std::divides<C>()); break;
    }
  }
  return OkStatus();
}

// Integer power by repeated squaring in wrapping arithmetic.
template <typename T>
T IntegerPower(T base, int64_t exponent) {
  if (exponent < 0) {
    // The real result 1/base^-e truncated toward zero.
    if (base == 1) return 1;
    if constexpr (std::is_signed_v<T>) {
      if (base == -1) return (exponent % 2 == 0) ? T{1} : T{-1};
    }
    return 0;
  }
  T result = 1;
  T factor = base;
  for (uint64_t e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
    if (e & 1) result = WrapMul(result, factor);
    factor = WrapMul(factor, factor);
  }
  return result;
}

template <typename X, typename Y>
X PowerOf(X x, Y y) {
  if constexpr (kIsInt<X> && kIsInt<Y>) {
    // Exponents beyond int64 only matter for bases 0, 1 and -1, and for those any huge even
    // exponent gives the same result as the largest even int64.
    int64_t e = static_cast<int64_t>(y);
    if constexpr (std::is_unsigned_v<Y> && sizeof(Y) == 8) {
      if (y > static_cast<Y>(INT64_MAX)) e = INT64_MAX - 1 + static_cast<int64_t>(y & 1);
    }
    return IntegerPower<X>(x, e);
  } else {
    double base = static_cast<double>(ToCompute(x));
    double exponent = static_cast<double>(ToCompute(y));
    double r = std::pow(base, exponent);
    if constexpr (kIsInt<X>) {
      return SaturatingCast<X>(r);
    } else {
      return FromCompute<X>(static_cast<ComputeType<X>>(r));
    }
  }
}

}  // namespace

StatusOr<Tensor> BinaryArithmetic(ArithmeticOp op, const Tensor& a, const Tensor& b) {
  ONNXGATE_RETURN_IF_ERROR(CheckSameType(a, b));
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(a.dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(
      a.dtype(), [&](auto tag) { return ArithmeticLoop<decltype(tag)>(op, a, b, &y); }));
  return y;
}

StatusOr<Tensor> Power(const Tensor& x, const Tensor& y) {
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(x.shape(), y.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, NewTensor(x.dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto x_tag) {
    using X = decltype(x_tag);
    return VisitArithmeticTypes(y.dtype(), [&](auto y_tag) {
      using Y = decltype(y_tag);
      BroadcastBinary<X, Y, X>(x, y, &z, PowerOf<X, Y>);
      return OkStatus();
    });
  }));
  return z;
}

template <ArithmeticOp kOp>
StatusOr<std::unique_ptr<OpKernel>> BinaryArithmeticKernel<kOp>::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(LegacyBroadcast legacy, LegacyBroadcast::FromInfo(info));
  return std::unique_ptr<OpKernel>(new BinaryArithmeticKernel(legacy));
}

template <ArithmeticOp kOp>
Status BinaryArithmeticKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor b_aligned, legacy_.AlignB(*a, *b));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, BinaryArithmetic(kOp, *a, b_aligned));
  ctx.set_output(0, std::move(c));
  return OkStatus();
}

template class BinaryArithmeticKernel<ArithmeticOp::kAdd>;
template class BinaryArithmeticKernel<ArithmeticOp::kSub>;
template class BinaryArithmeticKernel<ArithmeticOp::kMul>;
template class BinaryArithmeticKernel<ArithmeticOp::kDiv>;

StatusOr<std::unique_ptr<OpKernel>> PowKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(LegacyBroadcast legacy, LegacyBroadcast::FromInfo(info));
  // Before Pow-12, X and Y share the type constraint T.
  bool same_type = info.since_version() < 12;
  return std::unique_ptr<OpKernel>(new PowKernel(legacy, same_type));
}

Status PowKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 1, "Y"));
  if (same_type_) ONNXGATE_RETURN_IF_ERROR(CheckSameType(*x, *y));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y_aligned, legacy_.AlignB(*x, *y));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, Power(*x, y_aligned));
  ctx.set_output(0, std::move(z));
  return OkStatus();
}

}  // namespace onnxgate::ref
