// Conv on float32 (cl/conv.cl): direct convolution over any number of spatial dims, with group
// (depthwise included), strides, dilations, explicit pads or auto_pad (SAME_UPPER, SAME_LOWER,
// VALID) and the optional bias B. Attributes and the output geometry are ref's
// (ConvPoolAttributes, ResolveWindowGeometry), so both providers refuse the same nodes in the
// same words. X, W and B may be on the device or on the host; Y is left on the device.
// Declined: types other than float32 (the registration table) and versions before Conv-11.
#pragma once

#include <memory>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate::opencl_ep {

class ConvKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConvKernel(Context cl, ConvPoolAttributes attrs, int64_t group)
      : OpenClKernel(std::move(cl)), attrs_(std::move(attrs)), group_(group) {}

  ConvPoolAttributes attrs_;
  int64_t group_;
};

}  // namespace onnxgate::opencl_ep
