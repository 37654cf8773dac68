// BatchNormalization: inference (Y from the given mean and variance) for versions 6 and later,
// and, from version 14, training_mode with batch statistics and running_mean/running_var outputs.
#pragma once

#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class BatchNormalization : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  BatchNormalization(double epsilon, double momentum, bool spatial, bool training)
      : epsilon_(epsilon), momentum_(momentum), spatial_(spatial), training_(training) {}

  double epsilon_;
  double momentum_;
  bool spatial_;   // false (versions 6 and 7 only): one mean and variance per activation
  bool training_;  // training_mode = 1 (version 14 and later)
};

}  // namespace onnxgate::ref
