// BitShift: x << y or x >> y elementwise with numpy broadcasting, unsigned (and, from
// BitShift-28, signed) integers.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// x << y or x >> y elementwise. Unsigned: shifts by the bit width or more give 0. Signed
// (BitShift-28): a left shift drops the bits moved past the sign bit (two's complement wrap), a
// right shift is arithmetic; a negative shift or one by the width or more gives what the sign
// extension alone gives: -1 for a right shift of a negative x, 0 otherwise.
StatusOr<Tensor> BitShift(const Tensor& x, const Tensor& y, bool left);

class BitShiftKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit BitShiftKernel(bool left) : left_(left) {}
  bool left_;
};

}  // namespace onnxgate::ref
