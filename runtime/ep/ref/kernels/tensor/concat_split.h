// Concat and Split: joining tensors along an axis and cutting one apart along an axis; the
// joining of a sequence's tensors that ConcatFromSequence and Loop's scan outputs share.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Joins `inputs` (one element type, one rank >= 1, equal dims except `axis`) along `axis`, which
// must already be normalised to [0, rank).
StatusOr<Tensor> Concat(const std::vector<const Tensor*>& inputs, int64_t axis);

// Cuts `x` along the normalised `axis` into parts of `sizes` (non-negative, summing to the dim).
StatusOr<std::vector<Tensor>> Split(const Tensor& x, int64_t axis,
                                    const std::vector<int64_t>& sizes);

// Joins the tensors of a sequence along `axis`; with `new_axis` they are stacked along a new
// dim inserted at `axis`. `axis` is in [-r, r-1], or [-r-1, r] with `new_axis` (r: the rank of
// the items). InvalidArgument for an empty sequence or items that do not fit together.
StatusOr<Tensor> ConcatSequence(const std::vector<Tensor>& items, int64_t axis, bool new_axis);

class ConcatKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConcatKernel(int64_t axis, bool allow_negative) : axis_(axis), allow_negative_(allow_negative) {}
  int64_t axis_;
  bool allow_negative_;
};

// Split: the part sizes come from the `split` attribute (1, 2, 11) or input (1, 13); without
// them the dim is cut into as many equal parts as the node has outputs. Split-18 requires the
// `split` input or the `num_outputs` attribute; with num_outputs the parts have size
// ceil(dim / num_outputs) and the last one takes what is left.
class SplitKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  SplitKernel(int version, int64_t axis, std::optional<std::vector<int64_t>> split,
              std::optional<int64_t> num_outputs)
      : version_(version), axis_(axis), split_attr_(std::move(split)), num_outputs_(num_outputs) {}
  int version_;
  int64_t axis_;
  std::optional<std::vector<int64_t>> split_attr_;
  std::optional<int64_t> num_outputs_;  // Split-18
};

}  // namespace onnxgate::ref
