// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opsets 12 and 13): per-element losses
// of inputs shaped [N, C, d1, ..., dk] against class targets shaped [N, d1, ..., dk], with
// optional per-class weights, an optional ignore_index, and reduction none, sum or mean.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class LossReduction { kNone, kSum, kMean };

// "none", "sum" or "mean"; InvalidArgument otherwise.
StatusOr<LossReduction> ParseLossReduction(const std::string& name);

// loss[n, d...] = -weight[t] * input[n, t, d...] with t = target[n, d...]; targets equal to
// `ignore_index` contribute 0 and weigh 0. kMean divides the sum by the sum of the weights
// (each 1 without `weight`), so an all-ignored batch gives NaN (0/0), as numpy does.
// Computed in double, rounded once to the input type. InvalidArgument for mismatched shapes or
// a target outside [0, C) that is not ignore_index.
StatusOr<Tensor> NegativeLogLikelihood(const Tensor& input, const Tensor& target,
                                       const Tensor* weight, LossReduction reduction,
                                       std::optional<int64_t> ignore_index);

class NegativeLogLikelihoodLossKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  NegativeLogLikelihoodLossKernel(LossReduction reduction, std::optional<int64_t> ignore_index)
      : reduction_(reduction), ignore_index_(ignore_index) {}
  LossReduction reduction_;
  std::optional<int64_t> ignore_index_;
};

// SoftmaxCrossEntropyLoss: NegativeLogLikelihood of LogSoftmax(scores) along axis 1; the
// second output, when the node has it, is that log-probability tensor.
class SoftmaxCrossEntropyLossKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  SoftmaxCrossEntropyLossKernel(LossReduction reduction, std::optional<int64_t> ignore_index)
      : reduction_(reduction), ignore_index_(ignore_index) {}
  LossReduction reduction_;
  std::optional<int64_t> ignore_index_;
};

}  // namespace onnxgate::ref
