// The Reduce* family: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
// ReduceL2, ReduceLogSum, ReduceLogSumExp and ReduceSumSquare. Axes come from the `axes`
// attribute (ReduceSum 1 to 12, the others 1 to 17) or from the optional `axes` input
// (ReduceSum from 13, the others from 18, which also have noop_with_empty_axes). Negative axes
// exist from opset 11.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class ReduceOp {
  kSum,
  kMean,
  kMax,
  kMin,
  kProd,
  kL1,
  kL2,
  kLogSum,
  kLogSumExp,
  kSumSquare,
};

// Reduces `x` over `axes` (already normalised into [0, rank) and distinct; empty means every
// axis). With `keepdims` each reduced dim stays as 1, otherwise it is dropped.
//
// Float types (float16 and bfloat16 through float) accumulate in double and round once.
// Integer types: Sum, Prod, L1 and SumSquare wrap in two's complement like numpy; Mean, L2,
// LogSum and LogSumExp are computed in floating point and truncated toward zero (saturating).
// Max and Min propagate NaN. Over an empty set of values the result is what the math gives:
// Sum, L1, L2, SumSquare 0; Prod 1; Mean NaN (0 for integers); Max -inf (the lowest integer);
// Min +inf (the highest integer); LogSum and LogSumExp -inf (the lowest integer).
// bool (ReduceMax-20 and ReduceMin-20, False < True): Max is any, Min is all; over an empty set
// Max gives false and Min true. The other ops reject bool.
StatusOr<Tensor> Reduce(ReduceOp op, const Tensor& x, const std::vector<int64_t>& axes,
                        bool keepdims);

// `op` applied to every element of `x` as a set of one, the shape unchanged: the result of
// noop_with_empty_axes without axes, where the reduction step is the identity but the
// composite reductions keep their other steps (x*x, |x|, sqrt(x*x), log(x)).
StatusOr<Tensor> ReduceEachElement(ReduceOp op, const Tensor& x);

template <ReduceOp kOp>
class ReduceKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  struct Options {
    bool keepdims = true;
    bool allow_negative_axes = true;
    // The attribute form: the axes to reduce (nullopt or empty: all). Unused with axes_input.
    std::optional<std::vector<int64_t>> axes;
    // ReduceSum-13 and every Reduce* from 18: axes arrive as the optional second input.
    bool axes_input = false;
    bool noop_with_empty_axes = false;
  };
  explicit ReduceKernel(Options options) : options_(std::move(options)) {}
  Options options_;
};

}  // namespace onnxgate::ref
