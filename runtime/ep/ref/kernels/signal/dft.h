// DFT-17 and DFT-20: the discrete Fourier transform (or its inverse) along one axis of a real
// [..., 1] or complex [..., 2] tensor, full, one-sided (RFFT) or from a one-sided spectrum
// (IRFFT). DFT-17 takes the axis as an attribute (default 1), DFT-20 as its optional third input
// (default -2).
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class Dft : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  Dft(int64_t axis, bool axis_input, bool inverse, bool onesided)
      : axis_(axis), axis_input_(axis_input), inverse_(inverse), onesided_(onesided) {}
  int64_t axis_;     // as given; checked against the input's rank in Compute
  bool axis_input_;  // DFT-20: input 2, when given, replaces axis_
  bool inverse_;
  bool onesided_;
};

}  // namespace onnxgate::ref
