// The optimizers of the ai.onnx.preview.training domain: Adagrad, Adam and Momentum. Each takes a
// learning rate R and an update count T, then n tensors to optimize followed by their gradients
// and per-tensor state, and returns the updated tensors and states. Computed in double.
#pragma once

#include <memory>
#include <string>

#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

class AdagradKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  AdagradKernel(const KernelInfo& info, double decay_factor, double epsilon,
                double norm_coefficient)
      : RefKernel(info),
        decay_factor_(decay_factor),
        epsilon_(epsilon),
        norm_coefficient_(norm_coefficient) {}
  double decay_factor_, epsilon_, norm_coefficient_;
};

class AdamKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  struct Config {
    double alpha, beta, epsilon, norm_coefficient, norm_coefficient_post;
  };
  AdamKernel(const KernelInfo& info, Config c) : RefKernel(info), c_(c) {}
  Config c_;
};

class MomentumKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  MomentumKernel(const KernelInfo& info, double alpha, double beta, double norm_coefficient,
                 bool nesterov)
      : RefKernel(info),
        alpha_(alpha),
        beta_(beta),
        norm_coefficient_(norm_coefficient),
        nesterov_(nesterov) {}
  double alpha_, beta_, norm_coefficient_;
  bool nesterov_;
};

}  // namespace onnxgate::ref
