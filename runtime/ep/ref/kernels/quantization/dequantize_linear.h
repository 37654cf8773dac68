// DequantizeLinear: y = (x - x_zero_point) * x_scale, per tensor, per axis (opset 13) or blocked
// (opset 21), for the integer, 8-bit float, 4-bit and 2-bit input types.
#pragma once

#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/ep/ref/kernels/quantization/quant_params.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class DequantizeLinearKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  DequantizeLinearKernel(int since_version, QuantLayoutRules rules, DataType output_dtype)
      : since_version_(since_version), rules_(rules), output_dtype_(output_dtype) {}
  int since_version_;
  QuantLayoutRules rules_;
  DataType output_dtype_;  // kUndefined: the scale's type (opset 23)
};

}  // namespace onnxgate::ref
