// Mod: the remainder of a division, elementwise with numpy broadcasting.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// a mod b elementwise. With `fmod` the result has the sign of a (C fmod / %); without, the sign
// of b (Python's %: a - floor(a / b) * b). Floats without `fmod` need `float_floor_mod` (Mod-28
// defines them; before, ONNX allowed fmod=0 only for integers): a zero result takes the sign of
// b, an infinite a or a zero b gives NaN, a finite a against an infinite b of the other sign
// gives b. An integer zero divisor is an InvalidArgument error.
StatusOr<Tensor> Mod(const Tensor& a, const Tensor& b, bool fmod, bool float_floor_mod = false);

class ModKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ModKernel(bool fmod, bool float_floor_mod) : fmod_(fmod), float_floor_mod_(float_floor_mod) {}
  bool fmod_;
  bool float_floor_mod_;  // Mod-28 defines fmod=0 for floats
};

}  // namespace onnxgate::ref
