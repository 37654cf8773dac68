// Elementwise ops of the math family that do not fit the one-input template: PRelu (a slope
// tensor broadcast onto X) and SwiGLU (a gate and a value of one shape).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// x < 0 ? slope * x : x, with `slope` broadcast unidirectionally onto x (PRelu-7 on).
StatusOr<Tensor> PRelu(const Tensor& x, const Tensor& slope);

// a * sigmoid(alpha * a) * b elementwise; a and b must have one float type and one shape (no
// broadcasting). float16 and bfloat16 compute in float.
StatusOr<Tensor> SwiGLU(const Tensor& a, const Tensor& b, float alpha);

// PRelu-7 on broadcast the slope unidirectionally onto X. PRelu-1 and -6 only say that a
// one-element slope is shared across the channels: they take a slope of one element, of X's
// shape, or of one value per channel (1-D, X's dim 1).
class PReluKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit PReluKernel(bool legacy) : legacy_(legacy) {}
  bool legacy_;  // PRelu-1 and -6
};

class SwiGLUKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit SwiGLUKernel(float alpha) : alpha_(alpha) {}
  float alpha_;
};

}  // namespace onnxgate::ref
