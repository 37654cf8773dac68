// Mod and BitShift.
#include "runtime/ep/ref/kernels/math/mod_bitshift.h"

#include <cmath>

#include "runtime/ep/ref/kernels/common/broadcast.h"
#include "runtime/ep/ref/kernels/common/compute_type.h"

namespace onnxgate::ref {

namespace {

Status CheckSameType(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) {
    return InvalidArgument(std::string("inputs must have one element type, got ") +
                           DataTypeShortName(a.dtype()) + " and " + DataTypeShortName(b.dtype()));
  }
  return OkStatus();
}

// The remainder of a / b for b != 0: truncated (C) with `fmod`, floored (Python) without.
template <typename T>
T IntegerMod(T a, T b, bool fmod) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;  // INT_MIN % -1 overflows in C++; the remainder is 0
  }
  T r = static_cast<T>(a % b);
  if constexpr (std::is_signed_v<T>) {
    if (!fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
  }
  return r;
}

}  // namespace

StatusOr<Tensor> Mod(const Tensor& a, const Tensor& b, bool fmod) {
  ONNXGATE_RETURN_IF_ERROR(CheckSameType(a, b));
  if (IsFloatingPoint(a.dtype()) && !fmod) {
    return InvalidArgument("Mod of floating-point inputs needs fmod=1");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(a.dtype(), shape));
  bool zero_divisor = false;
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    BroadcastBinary<T, T, T>(a, b, &y, [&](T x, T z) {
      if constexpr (kIsInt<T>) {
        if (z == 0) {
          zero_divisor = true;
          return T{0};
        }
        return IntegerMod(x, z, fmod);
      } else {
        return FromCompute<T>(std::fmod(ToCompute(x), ToCompute(z)));
      }
    });
    return OkStatus();
  }));
  if (zero_divisor) return InvalidArgument("integer modulo by zero (B holds a 0)");
  return y;
}

StatusOr<Tensor> BitShift(const Tensor& x, const Tensor& y, bool left) {
  ONNXGATE_RETURN_IF_ERROR(CheckSameType(x, y));
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(x.shape(), y.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, NewTensor(x.dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_unsigned_v<T>) {
      BroadcastBinary<T, T, T>(x, y, &z, [left](T v, T s) {
        // Shifting by the width or more is undefined in C++; every bit is shifted out.
        if (s >= sizeof(T) * 8) return T{0};
        return static_cast<T>(left ? v << s : v >> s);
      });
      return OkStatus();
    } else {
      return Unimplemented(std::string("BitShift takes unsigned integers, got ") +
                           DataTypeShortName(x.dtype()));
    }
  }));
  return z;
}

StatusOr<std::unique_ptr<OpKernel>> ModKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t fmod, info.GetInt("fmod", 0));
  if (fmod != 0 && fmod != 1) {
    return InvalidArgument(info.Describe() + ": attribute 'fmod' must be 0 or 1, got " +
                           std::to_string(fmod));
  }
  return std::unique_ptr<OpKernel>(new ModKernel(info, fmod == 1));
}

Status ModKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, Mod(*a, *b, fmod_));
  ctx.set_output(0, std::move(c));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> BitShiftKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string direction, info.GetString("direction"));
  if (direction != "LEFT" && direction != "RIGHT") {
    return InvalidArgument(info.Describe() + ": attribute 'direction' must be \"LEFT\" or " +
                           "\"RIGHT\", got \"" + direction + "\"");
  }
  return std::unique_ptr<OpKernel>(new BitShiftKernel(info, direction == "LEFT"));
}

Status BitShiftKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 1, "Y"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, BitShift(*x, *y, left_));
  ctx.set_output(0, std::move(z));
  return OkStatus();
}

}  // namespace onnxgate::ref
