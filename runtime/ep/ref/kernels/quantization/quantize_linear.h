// QuantizeLinear, DequantizeLinear (per-tensor, and per-axis from opset 13) and
// DynamicQuantizeLinear: the linear (scale, zero point) quantization of ONNX.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// y = saturate(round_half_to_even(x / y_scale) + y_zero_point), with x / y_scale computed in
// float32 as the spec's reference does. `zero_point` may be null (uint8, zero). `axis` is the
// normalised axis the scale runs along when the scale has more than one element.
StatusOr<Tensor> QuantizeLinear(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                                int64_t axis);

// y = (x - x_zero_point) * x_scale as float32; the zero point of int32 input must be 0.
StatusOr<Tensor> DequantizeLinear(const Tensor& x, const Tensor& scale, const Tensor* zero_point,
                                  int64_t axis);

class QuantizeLinearKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  QuantizeLinearKernel(const KernelInfo& info, bool dequantize, int64_t axis, bool per_axis)
      : RefKernel(info), dequantize_(dequantize), axis_(axis), per_axis_(per_axis) {}
  bool dequantize_;
  int64_t axis_;
  bool per_axis_;  // the version allows a 1-D scale along `axis` (opset 13)

  friend class DequantizeLinearKernel;
};

// DequantizeLinear shares QuantizeLinearKernel's attribute handling.
class DequantizeLinearKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};

// DynamicQuantizeLinear: uint8 quantization with scale and zero point computed from x's range
// (extended to include 0), outputs y, y_scale, y_zero_point.
class DynamicQuantizeLinearKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  explicit DynamicQuantizeLinearKernel(const KernelInfo& info) : RefKernel(info) {}
};

}  // namespace onnxgate::ref
