// Where: elements of X where a bool condition holds and of Y elsewhere, with numpy broadcasting
// of the three inputs.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// condition ? x : y elementwise, all three broadcast together; x and y share any element type.
StatusOr<Tensor> Where(const Tensor& condition, const Tensor& x, const Tensor& y);

class WhereKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
