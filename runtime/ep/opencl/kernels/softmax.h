// Softmax on float32 (cl/softmax.cl): along one axis from Softmax-13, over the input coerced to
// 2-D at `axis` before (Softmax-1 and -11).
#pragma once

#include <memory>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::opencl_ep {

class SoftmaxKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  SoftmaxKernel(Context cl, int64_t axis, bool coerce_2d)
      : OpenClKernel(std::move(cl)), axis_(axis), coerce_2d_(coerce_2d) {}

  int64_t axis_;
  bool coerce_2d_;  // before Softmax-13: normalize over every dim from `axis` on
};

}  // namespace onnxgate::opencl_ep
