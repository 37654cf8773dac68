// NonZero: the indices of the non-zero elements, as an int64 tensor [rank, count] in row-major
// order of the input (numpy.nonzero stacked).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Non-zero means != 0 for numbers (NaN included), true for bool, non-empty for strings. A
// scalar is treated as a 1-element vector, as numpy does, so the result has shape [1, count].
StatusOr<Tensor> NonZero(const Tensor& x);

class NonZeroKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
