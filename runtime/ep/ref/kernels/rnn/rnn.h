// The recurrent ops RNN, GRU and LSTM (every direction, activation, clip, sequence_lens,
// initial state, layout, peephole and linear_before_reset form). The math runs in double.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/common/kernel_util.h"
#include "runtime/ep/ref/kernels/rnn/recurrent.h"

namespace onnxgate::ref {

// Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi)
class RnnKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  RnnKernel(const KernelInfo& info, RecurrentConfig cfg) : RefKernel(info), cfg_(std::move(cfg)) {}
  RecurrentConfig cfg_;
};

// Gates z, r, h (in that order in W, R and B), activations f and g.
class GruKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  GruKernel(const KernelInfo& info, RecurrentConfig cfg, bool linear_before_reset)
      : RefKernel(info), cfg_(std::move(cfg)), linear_before_reset_(linear_before_reset) {}
  RecurrentConfig cfg_;
  bool linear_before_reset_;
};

// Gates i, o, f, c (in that order in W, R and B), peepholes i, o, f, activations f, g and h.
class LstmKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  LstmKernel(const KernelInfo& info, RecurrentConfig cfg, bool input_forget)
      : RefKernel(info), cfg_(std::move(cfg)), input_forget_(input_forget) {}
  RecurrentConfig cfg_;
  bool input_forget_;
};

}  // namespace onnxgate::ref
