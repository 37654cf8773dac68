// StringConcat (opset 20): Z = X + Y elementwise on string tensors, with numpy broadcasting.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class StringConcatKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
