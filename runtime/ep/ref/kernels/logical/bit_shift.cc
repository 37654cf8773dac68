// BitShift.
#include "runtime/ep/ref/kernels/logical/bit_shift.h"

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "runtime/ep/ref/kernels/common/element_type_checks.h"
#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// The bits of T.
template <typename T>
constexpr int64_t kBits = static_cast<int64_t>(sizeof(T) * 8);

template <typename T>
T ShiftSigned(T v, T s, bool left) {
  if (s < 0 || static_cast<int64_t>(s) >= kBits<T>) {
    return (!left && v < 0) ? T{-1} : T{0};
  }
  // On the bits as uint64 (the value sign-extended), where every shift is defined.
  const uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(v));
  if (left) return static_cast<T>(bits << s);
  // Arithmetic shift written out, so that it does not rest on the implementation's >>: the
  // sign-extended bits shifted right, refilled with ones from the top for a negative v.
  uint64_t shifted = bits >> s;
  if (v < 0 && s > 0) shifted |= ~uint64_t{0} << (64 - s);
  return static_cast<T>(shifted);
}

}  // namespace

StatusOr<Tensor> BitShift(const Tensor& x, const Tensor& y, bool left) {
  ONNXGATE_RETURN_IF_ERROR(CheckSameElementType(x, y, "inputs"));
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
    } else if constexpr (kIsInt<T>) {
      BroadcastBinary<T, T, T>(x, y, &z, [left](T v, T s) { return ShiftSigned(v, s, left); });
      return OkStatus();
    } else {
      return Unimplemented(std::string("BitShift takes integers, got ") +
                           DataTypeShortName(x.dtype()));
    }
  }));
  return z;
}

StatusOr<std::unique_ptr<OpKernel>> BitShiftKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::string direction, info.GetString("direction"));
  if (direction != "LEFT" && direction != "RIGHT") {
    return InvalidArgument("attribute 'direction' must be \"LEFT\" or \"RIGHT\", got \"" +
                           direction + "\"");
  }
  return std::unique_ptr<OpKernel>(new BitShiftKernel(direction == "LEFT"));
}

Status BitShiftKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 1, "Y"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, BitShift(*x, *y, left_));
  ctx.set_output(0, std::move(z));
  return OkStatus();
}

}  // namespace onnxgate::ref
