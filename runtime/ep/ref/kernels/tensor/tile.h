// Tile: a tensor repeated along each dim as many times as `repeats` says.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// x repeated repeats[d] times along each dim d (repeats: one non-negative entry per dim).
StatusOr<Tensor> Tile(const Tensor& x, const std::vector<int64_t>& repeats);

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
