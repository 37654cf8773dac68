// BitwiseAnd, BitwiseOr, BitwiseXor (numpy broadcasting) and BitwiseNot on the signed and
// unsigned integer types, acting on the two's complement bits.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class BitwiseOp { kAnd, kOr, kXor };

// a op b elementwise over the broadcast of a and b, which must have one integer element type.
StatusOr<Tensor> Bitwise(BitwiseOp op, const Tensor& a, const Tensor& b);

// ~x elementwise for an integer tensor.
StatusOr<Tensor> BitwiseNot(const Tensor& x);

template <BitwiseOp kOp>
class BitwiseKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class BitwiseNotKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
