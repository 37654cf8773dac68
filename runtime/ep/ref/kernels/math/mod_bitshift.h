// Mod and BitShift: integer-flavoured binary ops with numpy broadcasting.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// a mod b elementwise. With `fmod` the result has the sign of a (C fmod / %); without, the sign
// of b (Python's %), which ONNX allows only for integers. An integer zero divisor is an
// InvalidArgument error.
StatusOr<Tensor> Mod(const Tensor& a, const Tensor& b, bool fmod);

// x << y or x >> y elementwise for unsigned integers; shifts by the bit width or more give 0.
StatusOr<Tensor> BitShift(const Tensor& x, const Tensor& y, bool left);

class ModKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  ModKernel(const KernelInfo& info, bool fmod) : RefKernel(info), fmod_(fmod) {}
  bool fmod_;
};

class BitShiftKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  BitShiftKernel(const KernelInfo& info, bool left) : RefKernel(info), left_(left) {}
  bool left_;
};

}  // namespace onnxgate::ref
