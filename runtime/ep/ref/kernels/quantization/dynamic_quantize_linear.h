// DynamicQuantizeLinear: uint8 quantization with the scale and zero point computed from x's range
// (extended to include 0); outputs y, y_scale, y_zero_point.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class DynamicQuantizeLinearKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
