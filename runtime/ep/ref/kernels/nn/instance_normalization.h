// InstanceNormalization: y = scale * (x - mean) / sqrt(var + epsilon) + B, with mean and
// (population) variance taken per image and channel over the spatial axes.
#pragma once

#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class InstanceNormalization : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit InstanceNormalization(double epsilon) : epsilon_(epsilon) {}
  double epsilon_;
};

}  // namespace onnxgate::ref
