// Expand (broadcast a tensor to a shape) and Tile (repeat a tensor along each dim).
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// x broadcast with `shape` in both directions (numpy rules), as Expand-8 defines.
StatusOr<Tensor> Expand(const Tensor& x, const std::vector<int64_t>& shape);

// x repeated repeats[d] times along each dim d (repeats: one non-negative entry per dim).
StatusOr<Tensor> Tile(const Tensor& x, const std::vector<int64_t>& repeats);

class ExpandKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

// Tile-6 takes `repeats`; Tile-1 takes a count `tiles` and an `axis`, both as scalar inputs.
class TileKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit TileKernel(int version) : version_(version) {}
  int version_;
};

}  // namespace onnxgate::ref
