// CumSum: running sums along one axis (given as a scalar input), optionally exclusive (each
// output leaves out its own element) and/or reversed (summing from the end).
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// Running sums of `x` along `axis` (already normalised). Floats accumulate in double and round
// each output once; integers wrap in two's complement.
StatusOr<Tensor> CumSum(const Tensor& x, int64_t axis, bool exclusive, bool reverse);

class CumSumKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  CumSumKernel(const KernelInfo& info, bool exclusive, bool reverse)
      : RefKernel(info), exclusive_(exclusive), reverse_(reverse) {}
  bool exclusive_;
  bool reverse_;
};

}  // namespace onnxgate::ref
