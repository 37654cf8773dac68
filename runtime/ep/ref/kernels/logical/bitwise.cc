// BitwiseAnd, BitwiseOr, BitwiseXor and BitwiseNot.
#include "runtime/ep/ref/kernels/logical/bitwise.h"

#include <string>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

// Calls fn(T{}) for the integer element types; Unimplemented for the others.
template <typename Fn>
Status VisitIntegerTypes(DataType type, Fn&& fn) {
  if (IsFloatingPoint(type)) {
    return Unimplemented(std::string("bitwise ops take integers, got ") + DataTypeShortName(type));
  }
  return VisitArithmeticTypes(type, [&](auto tag) -> Status {
    if constexpr (kIsInt<decltype(tag)>) {
      return fn(tag);
    } else {
      return Unimplemented(std::string("bitwise ops take integers, got ") +
                           DataTypeShortName(type));
    }
  });
}

}  // namespace

StatusOr<Tensor> Bitwise(BitwiseOp op, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) {
    return InvalidArgument(std::string("A and B must have one element type, got ") +
                           DataTypeShortName(a.dtype()) + " and " + DataTypeShortName(b.dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, NewTensor(a.dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitIntegerTypes(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    BroadcastBinary<T, T, T>(a, b, &c, [op](T x, T y) {
      switch (op) {
        case BitwiseOp::kAnd: return static_cast<T>(x & y);
        case BitwiseOp::kOr: return static_cast<T>(x | y);
        case BitwiseOp::kXor: break;
      }
      return static_cast<T>(x ^ y);
    });
    return OkStatus();
  }));
  return c;
}

StatusOr<Tensor> BitwiseNot(const Tensor& x) {
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), x.shape()));
  ONNXGATE_RETURN_IF_ERROR(VisitIntegerTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x.data<T>();
    T* out = y.mutable_data<T>();
    for (int64_t i = 0, n = x.NumElements(); i < n; ++i) out[i] = static_cast<T>(~in[i]);
    return OkStatus();
  }));
  return y;
}

template <BitwiseOp kOp>
Status BitwiseKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, Bitwise(kOp, *a, *b));
  ctx.set_output(0, std::move(c));
  return OkStatus();
}

Status BitwiseNotKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, BitwiseNot(*x));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

template class BitwiseKernel<BitwiseOp::kAnd>;
template class BitwiseKernel<BitwiseOp::kOr>;
template class BitwiseKernel<BitwiseOp::kXor>;

}  // namespace onnxgate::ref
