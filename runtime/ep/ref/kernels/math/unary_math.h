// Elementwise functions of one tensor: activations (Relu, Sigmoid, LeakyRelu, Elu, Gelu, Mish,
// Swish, ...), math
// (Exp, Log, Sqrt, trigonometry, Erf, ...), sign and rounding. Output type = input type.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class UnaryOp {
  kAbs,
  kAcos,
  kAcosh,
  kAsin,
  kAsinh,
  kAtan,
  kAtanh,
  kCeil,
  kCelu,
  kCos,
  kCosh,
  kElu,
  kErf,
  kExp,
  kFloor,
  kGelu,
  kHardSigmoid,
  kHardSwish,
  kLeakyRelu,
  kLog,
  kMish,
  kNeg,
  kReciprocal,
  kRelu,
  kRound,
  kSelu,
  kSigmoid,
  kSign,
  kSin,
  kSinh,
  kSoftplus,
  kSoftsign,
  kSqrt,
  kSwish,
  kTan,
  kTanh,
  kThresholdedRelu,
};

// The attributes of the parametrised activations (LeakyRelu's alpha, Selu's alpha and gamma,
// HardSigmoid's alpha and beta, Swish's alpha, Gelu's approximate, ...); unused by the others.
struct UnaryParams {
  float alpha = 0.0f;
  float beta = 0.0f;
  float gamma = 0.0f;
  bool tanh_approximation = false;  // Gelu: approximate = "tanh"
};

// Whether `op` has integer forms (Abs, Neg, Relu-14, Sign, Erf); the others take floats only.
constexpr bool UnaryAcceptsIntegers(UnaryOp op) {
  return op == UnaryOp::kAbs || op == UnaryOp::kNeg || op == UnaryOp::kRelu ||
         op == UnaryOp::kSign || op == UnaryOp::kErf;
}

// y = op(x) elementwise. float16/bfloat16 compute in float, float in float, double in double.
// Integers: Abs and Neg wrap (|INT_MIN| = INT_MIN, as numpy), Erf is computed in double and
// truncated. Unimplemented for element types the op does not have.
template <UnaryOp kOp>
StatusOr<Tensor> UnaryMath(const Tensor& x, const UnaryParams& params = {});

template <UnaryOp kOp>
class UnaryMathKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit UnaryMathKernel(UnaryParams params) : params_(params) {}
  UnaryParams params_;
};

}  // namespace onnxgate::ref
