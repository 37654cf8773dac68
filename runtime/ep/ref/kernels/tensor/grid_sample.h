// GridSample (opsets 16, 20, 22): samples an input at the normalised locations of a grid with
// N-linear, nearest or N-cubic interpolation and zeros, border or reflection padding, following
// torch.nn.functional.grid_sample, which the spec points to. Opset 16 names the modes bilinear
// and bicubic and takes 4-D inputs only; opset 20 renames them linear and cubic and takes any
// number of spatial dims.
#pragma once

#include <memory>
#include <string>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class GridSampleMode { kLinear, kNearest, kCubic };
enum class GridPadding { kZeros, kBorder, kReflection };

struct GridSampleOptions {
  GridSampleMode mode = GridSampleMode::kLinear;
  GridPadding padding = GridPadding::kZeros;
  bool align_corners = false;
};

// X [N, C, D1, ..., Dr] and grid [N, O1, ..., Or, r] -> [N, C, O1, ..., Or]; grid[..., 0]
// addresses the last axis Dr, grid[..., r - 1] the first, D1. Nearest copies elements of any
// type (zeros padding reads 0, false or ""); linear and cubic interpolate numeric types in
// double and store as Resize does (integers round half to even and saturate).
StatusOr<Tensor> GridSample(const Tensor& x, const Tensor& grid, const GridSampleOptions& options);

class GridSampleKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  GridSampleKernel(GridSampleOptions options, bool only_4d)
      : options_(options), only_4d_(only_4d) {}
  GridSampleOptions options_;
  bool only_4d_;  // GridSample-16
};

}  // namespace onnxgate::ref
