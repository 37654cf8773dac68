// AffineGrid (opset 20): the sampling grid of torch.nn.functional.affine_grid, a batch of 2-D
// or 3-D affine matrices applied to evenly spaced positions in [-1, 1], for GridSample.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// theta [N, 2, 3] and size [N, C, H, W] -> grid [N, H, W, 2], or theta [N, 3, 4] and size
// [N, C, D, H, W] -> grid [N, D, H, W, 3]. Entry (x, y[, z]) of the grid is theta times the
// homogeneous position (x, y[, z], 1), x running along W. Computed in double.
StatusOr<Tensor> AffineGrid(const Tensor& theta, const std::vector<int64_t>& size,
                            bool align_corners);

class AffineGridKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit AffineGridKernel(bool align_corners) : align_corners_(align_corners) {}
  bool align_corners_;
};

}  // namespace onnxgate::ref
