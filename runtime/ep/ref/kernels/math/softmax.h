// Softmax, LogSoftmax and Hardmax. Before opset 13 they coerce the input to 2-D at `axis`
// (default 1) and normalise over each row of the flattened trailing dims; from opset 13 they
// normalise along the single dim `axis` (default -1).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class SoftmaxOp { kSoftmax, kLogSoftmax, kHardmax };

// The op along one axis of a tensor viewed as [outer, n, inner]: for every (o, i) the n elements
// at (o, k, i) are normalised together. Softmax and LogSoftmax subtract the maximum and
// accumulate in double (also for float input), so large inputs neither overflow nor drift.
// Hardmax puts 1 at the first maximum and 0 elsewhere.
StatusOr<Tensor> SoftmaxAlong(SoftmaxOp op, const Tensor& x, int64_t outer, int64_t n,
                              int64_t inner);

// The op as the ONNX version defines it: `coerce_2d` for versions 1 to 12.
StatusOr<Tensor> SoftmaxFamily(SoftmaxOp op, const Tensor& x, int64_t axis, bool coerce_2d);

template <SoftmaxOp kOp>
class SoftmaxKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  SoftmaxKernel(int64_t axis, bool coerce_2d) : axis_(axis), coerce_2d_(coerce_2d) {}
  int64_t axis_;
  bool coerce_2d_;
};

}  // namespace onnxgate::ref
