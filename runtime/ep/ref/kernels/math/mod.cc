// Mod.
#include "runtime/ep/ref/kernels/math/mod.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "runtime/ep/ref/kernels/common/element_type_checks.h"
#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

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

// a - floor(a / b) * b for floats, with the sign of b; NaN for an infinite a or a zero b.
template <typename C>
C FloorMod(C a, C b) {
  C r = std::fmod(a, b);  // NaN for an infinite a, a zero b, or a NaN
  if (r != 0 && ((r < 0) != (b < 0))) {
    r += b;  // a finite a against an infinite b of the other sign gives b
  } else if (r == 0) {
    r = std::copysign(C(0), b);
  }
  return r;
}

}  // namespace

StatusOr<Tensor> Mod(const Tensor& a, const Tensor& b, bool fmod, bool float_floor_mod) {
  ONNXGATE_RETURN_IF_ERROR(CheckSameElementType(a, b, "inputs"));
  if (IsFloatingPoint(a.dtype()) && !fmod && !float_floor_mod) {
    return InvalidArgument("Mod of floating-point inputs needs fmod=1 before opset 28");
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
      } else if (fmod) {
        return FromCompute<T>(std::fmod(ToCompute(x), ToCompute(z)));
      } else {
        return FromCompute<T>(FloorMod(ToCompute(x), ToCompute(z)));
      }
    });
    return OkStatus();
  }));
  if (zero_divisor) return InvalidArgument("integer modulo by zero (B holds a 0)");
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> ModKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t fmod, info.GetInt("fmod", 0));
  if (fmod != 0 && fmod != 1) {
    return InvalidArgument("attribute 'fmod' must be 0 or 1, got " + std::to_string(fmod));
  }
  return std::unique_ptr<OpKernel>(new ModKernel(fmod == 1, info.since_version() >= 28));
}

Status ModKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, Mod(*a, *b, fmod_, float_floor_mod_));
  ctx.set_output(0, std::move(c));
  return OkStatus();
}

}  // namespace onnxgate::ref
