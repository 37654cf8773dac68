// The recurrent ops RNN, GRU and LSTM (every direction, activation, clip, sequence_lens,
// initial state, layout, peephole and linear_before_reset form). The math runs in double.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/rnn/recurrent.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi)
class RnnKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit RnnKernel(RecurrentConfig cfg) : cfg_(std::move(cfg)) {}
  RecurrentConfig cfg_;
};

// Gates z, r, h (in that order in W, R and B), activations f and g.
class GruKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  GruKernel(RecurrentConfig cfg, bool linear_before_reset)
      : cfg_(std::move(cfg)), linear_before_reset_(linear_before_reset) {}
  RecurrentConfig cfg_;
  bool linear_before_reset_;
};

// Gates i, o, f, c (in that order in W, R and B), peepholes i, o, f, activations f, g and h.
class LstmKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  LstmKernel(RecurrentConfig cfg, bool input_forget)
      : cfg_(std::move(cfg)), input_forget_(input_forget) {}
  RecurrentConfig cfg_;
  bool input_forget_;
};

}  // namespace onnxgate::ref
