// Expand: a tensor broadcast to a shape (Tile, of the tensor family, is tensor/tile.h).
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// x broadcast with `shape` in both directions (numpy rules), as Expand-8 defines.
StatusOr<Tensor> Expand(const Tensor& x, const std::vector<int64_t>& shape);

class ExpandKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
