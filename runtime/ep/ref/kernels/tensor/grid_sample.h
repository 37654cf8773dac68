// GridSample (opset 16): samples a 4-D input at the normalised (x, y) locations of a grid with
// bilinear, nearest or bicubic interpolation and zeros, border or reflection padding, following
// torch.nn.functional.grid_sample, which the spec points to.
#pragma once

#include <memory>
#include <string>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

enum class GridSampleMode { kBilinear, kNearest, kBicubic };
enum class GridPadding { kZeros, kBorder, kReflection };

struct GridSampleOptions {
  GridSampleMode mode = GridSampleMode::kBilinear;
  GridPadding padding = GridPadding::kZeros;
  bool align_corners = false;
};

// X [N, C, H, W] and grid [N, H_out, W_out, 2] -> [N, C, H_out, W_out], in double.
StatusOr<Tensor> GridSample(const Tensor& x, const Tensor& grid, const GridSampleOptions& options);

class GridSampleKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  GridSampleKernel(const KernelInfo& info, GridSampleOptions options)
      : RefKernel(info), options_(options) {}
  GridSampleOptions options_;
};

}  // namespace onnxgate::ref
