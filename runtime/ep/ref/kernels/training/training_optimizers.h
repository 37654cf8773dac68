// The optimizers of the ai.onnx.preview.training domain: Adagrad, Adam and Momentum. Each takes a
// learning rate R and an update count T, then n tensors to optimize followed by their gradients
// and per-tensor state, and returns the updated tensors and states. Computed in double.
#pragma once

#include <memory>
#include <string>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class AdagradKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  AdagradKernel(double decay_factor, double epsilon, double norm_coefficient)
      : decay_factor_(decay_factor), epsilon_(epsilon), norm_coefficient_(norm_coefficient) {}
  double decay_factor_, epsilon_, norm_coefficient_;
};

class AdamKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  struct Config {
    double alpha, beta, epsilon, norm_coefficient, norm_coefficient_post;
  };
  explicit AdamKernel(Config c) : c_(c) {}
  Config c_;
};

class MomentumKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  MomentumKernel(double alpha, double beta, double norm_coefficient, bool nesterov)
      : alpha_(alpha), beta_(beta), norm_coefficient_(norm_coefficient), nesterov_(nesterov) {}
  double alpha_, beta_, norm_coefficient_;
  bool nesterov_;
};

}  // namespace onnxgate::ref
