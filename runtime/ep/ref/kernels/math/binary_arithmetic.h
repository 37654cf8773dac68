// Add, Sub, Mul, Div and Pow: elementwise arithmetic of two tensors with numpy broadcasting
// (opset 7 on) or ONNX's legacy broadcast attributes (before opset 7).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class ArithmeticOp { kAdd, kSub, kMul, kDiv };

// a (op) b with numpy broadcasting; a and b have one element type. Integers wrap around in
// two's complement; integer division truncates toward zero like C, and a zero divisor is an
// InvalidArgument error (never a crash). float16/bfloat16 compute in float.
StatusOr<Tensor> BinaryArithmetic(ArithmeticOp op, const Tensor& a, const Tensor& b);

// x ** y with numpy broadcasting; y may have another element type than x and the result has the
// type of x. Integer x with integer y uses exact integer powers (wrapping on overflow; negative
// exponents give the truncated real result: 0 except for bases 1 and -1); otherwise the power is
// computed in double and rounded (float types) or truncated (integer x) to x's type.
StatusOr<Tensor> Power(const Tensor& x, const Tensor& y);

template <ArithmeticOp kOp>
class BinaryArithmeticKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit BinaryArithmeticKernel(LegacyBroadcast legacy) : legacy_(legacy) {}
  LegacyBroadcast legacy_;
};

using AddKernel = BinaryArithmeticKernel<ArithmeticOp::kAdd>;
using SubKernel = BinaryArithmeticKernel<ArithmeticOp::kSub>;
using MulKernel = BinaryArithmeticKernel<ArithmeticOp::kMul>;
using DivKernel = BinaryArithmeticKernel<ArithmeticOp::kDiv>;

class PowKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  PowKernel(LegacyBroadcast legacy, bool same_type) : legacy_(legacy), same_type_(same_type) {}
  LegacyBroadcast legacy_;
  bool same_type_;
};

}  // namespace onnxgate::ref
