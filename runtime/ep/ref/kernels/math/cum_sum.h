// CumSum and CumProd: running sums or products along one axis (given as a scalar input),
// optionally exclusive (each output leaves out its own element) and/or reversed (from the end).
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class CumulativeOp { kSum, kProd };

// Running sums (products) of `x` along `axis` (already normalised). Floats accumulate in double
// and round each output once; integers wrap in two's complement. An exclusive run starts from 0
// (1 for a product).
StatusOr<Tensor> Cumulative(CumulativeOp op, const Tensor& x, int64_t axis, bool exclusive,
                            bool reverse);
inline StatusOr<Tensor> CumSum(const Tensor& x, int64_t axis, bool exclusive, bool reverse) {
  return Cumulative(CumulativeOp::kSum, x, axis, exclusive, reverse);
}

template <CumulativeOp kOp>
class CumulativeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  CumulativeKernel(bool exclusive, bool reverse) : exclusive_(exclusive), reverse_(reverse) {}
  bool exclusive_;
  bool reverse_;
};

using CumSumKernel = CumulativeKernel<CumulativeOp::kSum>;
using CumProdKernel = CumulativeKernel<CumulativeOp::kProd>;

}  // namespace onnxgate::ref
