// MatMulInteger and QLinearMatMul: numpy-style batched matrix products of 8-bit quantized
// operands (integers, and FLOAT8 for QLinearMatMul-21), accumulated exactly.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// (A - a_zero_point) x (B - b_zero_point) as int32. A zero point is a scalar, a 1-D tensor of
// one value per row of A (per column of B), or a tensor that broadcasts to the operand's shape
// (e.g. [D1, D2, M, 1] for A). Null zero points are 0.
StatusOr<Tensor> MatMulInteger(const Tensor& a, const Tensor& b, const Tensor* a_zero_point,
                               const Tensor* b_zero_point);

class MatMulIntegerKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

// y = saturate(round((a - a_zp) x (b - b_zp) * a_scale * b_scale / y_scale) + y_zp). The
// scales and zero points of a (and y) are per tensor or per row, those of b per tensor or per
// column; the product is exact and the rescaling is done in double. From opset 21 the scales may
// also be float16 or bfloat16 (all three of one type) and a, b and y FLOAT8: their values are
// decoded exactly, and a FLOAT8 y is (real / y_scale + y_zp) rounded to nearest even and
// saturated, as QuantizeLinear does with saturate=1.
class QLinearMatMulKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit QLinearMatMulKernel(bool float8) : float8_(float8) {}
  bool float8_;  // opset 21: FLOAT8 operands and float16/bfloat16 scales
};

}  // namespace onnxgate::ref
