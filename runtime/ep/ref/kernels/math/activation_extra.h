// Elementwise ops that do not fit the one-input template: PRelu (a slope tensor broadcast onto
// X), SwiGLU (a gate and a value of one shape), Shrink (two thresholds, integer forms), IsNaN and
// IsInf (bool results).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// x < 0 ? slope * x : x, with `slope` broadcast unidirectionally onto x (PRelu-7 on).
StatusOr<Tensor> PRelu(const Tensor& x, const Tensor& slope);

// a * sigmoid(alpha * a) * b elementwise; a and b must have one float type and one shape (no
// broadcasting). float16 and bfloat16 compute in float.
StatusOr<Tensor> SwiGLU(const Tensor& a, const Tensor& b, float alpha);

// x < -lambd ? x + bias : (x > lambd ? x - bias : 0), computed in double and converted back
// (integers truncate toward zero).
StatusOr<Tensor> Shrink(const Tensor& x, float lambd, float bias);

// bool tensors: NaN, or +inf / -inf as selected; for the float types and FLOAT8 (decoded).
StatusOr<Tensor> IsNaN(const Tensor& x);
StatusOr<Tensor> IsInf(const Tensor& x, bool detect_positive, bool detect_negative);

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

class ShrinkKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ShrinkKernel(float lambd, float bias) : lambd_(lambd), bias_(bias) {}
  float lambd_, bias_;
};

class IsNaNKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class IsInfKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  IsInfKernel(bool positive, bool negative) : positive_(positive), negative_(negative) {}
  bool positive_, negative_;
};

}  // namespace onnxgate::ref
