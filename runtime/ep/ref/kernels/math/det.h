// Det (opset 11): the determinant of each square matrix in the last two dims.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// For x of shape [*, M, M], the [*] determinants, computed in double by LU decomposition with
// partial pivoting and rounded once to x's type. A 0x0 matrix has determinant 1.
// InvalidArgument for rank < 2 or non-square matrices.
StatusOr<Tensor> Determinant(const Tensor& x);

class DetKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
