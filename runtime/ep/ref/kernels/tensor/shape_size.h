// Shape and Size: a tensor's dims and element count as int64 tensors.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// The dims [start, end) of `shape` as a 1-D int64 tensor. Negative start/end count from the back;
// both clamp to [0, rank]; an empty range gives an empty tensor (Shape-15's rules).
Tensor ShapeSlice(const Shape& shape, int64_t start, std::optional<int64_t> end);

class ShapeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  ShapeKernel(int64_t start, std::optional<int64_t> end) : start_(start), end_(end) {}
  int64_t start_;
  std::optional<int64_t> end_;
};

class SizeKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
