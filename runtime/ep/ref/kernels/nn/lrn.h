// LRN: local response normalization across channels,
// y = x / (bias + alpha / size * sum of x^2 over the `size` neighbouring channels)^beta.
#pragma once

#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class Lrn : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  Lrn(double alpha, double beta, double bias, int64_t size)
      : alpha_(alpha), beta_(beta), bias_(bias), size_(size) {}
  double alpha_, beta_, bias_;
  int64_t size_;
};

}  // namespace onnxgate::ref
