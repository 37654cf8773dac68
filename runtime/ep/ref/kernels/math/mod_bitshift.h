// Mod and BitShift: integer-flavoured binary ops with numpy broadcasting.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// a mod b elementwise. With `fmod` the result has the sign of a (C fmod / %); without, the sign
// of b (Python's %: a - floor(a / b) * b). Floats without `fmod` need `float_floor_mod` (Mod-28
// defines them; before, ONNX allowed fmod=0 only for integers): a zero result takes the sign of
// b, an infinite a or a zero b gives NaN, a finite a against an infinite b of the other sign
// gives b. An integer zero divisor is an InvalidArgument error.
StatusOr<Tensor> Mod(const Tensor& a, const Tensor& b, bool fmod, bool float_floor_mod = false);

// x << y or x >> y elementwise. Unsigned: shifts by the bit width or more give 0. Signed
// (BitShift-28): a left shift drops the bits moved past the sign bit (two's complement wrap), a
// right shift is arithmetic; a negative shift or one by the width or more gives what the sign
// extension alone gives: -1 for a right shift of a negative x, 0 otherwise.
StatusOr<Tensor> BitShift(const Tensor& x, const Tensor& y, bool left);

class ModKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ModKernel(bool fmod, bool float_floor_mod) : fmod_(fmod), float_floor_mod_(float_floor_mod) {}
  bool fmod_;
  bool float_floor_mod_;  // Mod-28 defines fmod=0 for floats
};

class BitShiftKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit BitShiftKernel(bool left) : left_(left) {}
  bool left_;
};

}  // namespace onnxgate::ref
