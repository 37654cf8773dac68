// STFT-17: the short-time Fourier transform, one DFT per (optionally windowed) frame of a real
// [batch, length, 1] or complex [batch, length, 2] signal.
#pragma once

#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class Stft : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit Stft(bool onesided) : onesided_(onesided) {}
  bool onesided_;
};

}  // namespace onnxgate::ref
