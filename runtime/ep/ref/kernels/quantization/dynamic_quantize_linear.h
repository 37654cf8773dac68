// DynamicQuantizeLinear: uint8 quantization with the scale and zero point computed from x's range
// (extended to include 0); outputs y, y_scale, y_zero_point.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

class DynamicQuantizeLinearKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  explicit DynamicQuantizeLinearKernel(const KernelInfo& info) : RefKernel(info) {}
};

}  // namespace onnxgate::ref
