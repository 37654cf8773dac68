// QuantizeLinear: y = saturate(round_half_to_even(x / y_scale) + y_zero_point) for the integer
// types, y = cast(x / y_scale + y_zero_point) for the 8-bit and 4-bit floats; per tensor, per axis
// (opset 13) or blocked (opset 21).
#pragma once

#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/ep/ref/kernels/quantization/quant_params.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class QuantizeLinearKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  QuantizeLinearKernel(int since_version, QuantLayoutRules rules, bool saturate,
                       DataType output_dtype, DataType precision)
      : since_version_(since_version),
        rules_(rules),
        saturate_(saturate),
        output_dtype_(output_dtype),
        precision_(precision) {}
  int since_version_;
  QuantLayoutRules rules_;
  bool saturate_;          // float8 outputs: out-of-range values saturate (opset 19)
  DataType output_dtype_;  // kUndefined: from the zero point, else uint8 (opset 21)
  DataType precision_;     // kUndefined: the division runs in the scale's type (opset 23)
};

}  // namespace onnxgate::ref
