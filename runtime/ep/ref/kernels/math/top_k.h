// TopK: the k largest (or smallest) elements along one axis and their int64 indices. k is an
// attribute in TopK-1 and an input from TopK-10; TopK-11 adds `largest`, `sorted` and integer
// types.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

struct TopKResult {
  Tensor values;
  Tensor indices;
};

// The k elements along `axis` (already normalised) in order: descending for `largest`,
// ascending otherwise; equal values keep their input order (the lower index first), as the
// ONNX spec requires. NaN sorts above every number. The outputs are always sorted: with
// sorted=0 ONNX leaves the order open, so the sorted order is a valid answer.
// InvalidArgument when k is negative or larger than the axis.
StatusOr<TopKResult> TopK(const Tensor& x, int64_t axis, int64_t k, bool largest);

class TopKKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  TopKKernel(int64_t axis, int64_t k_attribute, bool k_input, bool largest)
      : axis_(axis), k_attribute_(k_attribute), k_input_(k_input), largest_(largest) {}
  int64_t axis_;
  int64_t k_attribute_;  // TopK-1
  bool k_input_;         // TopK-10 and later
  bool largest_;
};

}  // namespace onnxgate::ref
