// CausalConvWithState (opset 27): a depthwise 1-D convolution that sees only the current and
// the k - 1 previous positions, the missing history taken from past_state (zeros without it),
// with an optional bias, an optional fused SiLU, and the last k - 1 positions as present_state.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class CausalConvWithStateKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit CausalConvWithStateKernel(bool silu) : silu_(silu) {}
  bool silu_;  // 'silu' or its alias 'swish'
};

}  // namespace onnxgate::ref
