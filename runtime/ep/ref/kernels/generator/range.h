// Range: the 1-D sequence start, start + delta, ... stopping before limit.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// start, limit and delta are one-element tensors of one type (float, double, int16, int32,
// int64, and from Range-27 float16 and bfloat16). The length is max(ceil((limit - start) /
// delta), 0), exactly for integers and in double for floats; element i is start + i * delta.
// float16 and bfloat16 compute in `stash_type` (float or double) and round each element back
// once. InvalidArgument for delta 0.
StatusOr<Tensor> Range(const Tensor& start, const Tensor& limit, const Tensor& delta,
                       DataType stash_type = DataType::kFloat);

class RangeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit RangeKernel(DataType stash_type) : stash_type_(stash_type) {}
  DataType stash_type_;  // Range-27's stash_type: float or double
};

}  // namespace onnxgate::ref
