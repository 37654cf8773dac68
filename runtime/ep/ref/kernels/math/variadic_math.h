// Max, Min, Sum and Mean of any number of tensors: with numpy broadcasting from opset 8, with
// equal shapes required before.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class VariadicOp { kMax, kMin, kSum, kMean };

// The elementwise max/min/sum/mean of `inputs` (at least one, one element type). With
// `broadcast`, shapes broadcast multidirectionally; without, they must all be equal. Max and Min
// propagate NaN (numpy.maximum). Sum and Mean of float types accumulate in double and round once.
StatusOr<Tensor> VariadicMath(VariadicOp op, const std::vector<const Tensor*>& inputs,
                              bool broadcast);

template <VariadicOp kOp>
class VariadicMathKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit VariadicMathKernel(bool broadcast) : broadcast_(broadcast) {}
  bool broadcast_;
};

}  // namespace onnxgate::ref
