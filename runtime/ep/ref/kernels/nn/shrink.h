// Shrink: elementwise soft shrinkage, x - bias above lambd, x + bias below -lambd, 0 between
// (integer forms included).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// x < -lambd ? x + bias : (x > lambd ? x - bias : 0), computed in double and converted back
// (integers truncate toward zero).
StatusOr<Tensor> Shrink(const Tensor& x, float lambd, float bias);

class ShrinkKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ShrinkKernel(float lambd, float bias) : lambd_(lambd), bias_(bias) {}
  float lambd_, bias_;
};

}  // namespace onnxgate::ref
