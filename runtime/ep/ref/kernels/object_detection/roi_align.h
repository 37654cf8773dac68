// RoiAlign (opsets 10 and 16): pooling of regions of interest of an [N, C, H, W] feature map
// into fixed-size [C, out_h, out_w] outputs, one per region (MaxRoiPool is nn/max_roi_pool.h).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

struct RoiAlignParams {
  bool max_mode = false;    // mode 'max' instead of 'avg'
  bool half_pixel = false;  // coordinate_transformation_mode 'half_pixel' (RoiAlign-16's default)
  int64_t output_height = 1;
  int64_t output_width = 1;
  int64_t sampling_ratio = 0;  // 0: adaptive, ceil(roi size / output size) points per bin
  double spatial_scale = 1.0;
};

// rois [num_rois, 4] as (x1, y1, x2, y2), batch_indices int64 [num_rois]. Every bin averages (or,
// in max mode, takes the maximum of) bilinear samples on a regular grid, with the sampling
// rules of Detectron's RoIAlign that ONNX Runtime and the ONNX reference share: samples more
// than one pixel outside the map are 0, others clamp to the edge; in max mode a sample's value
// is the largest of its four weighted corners.
StatusOr<Tensor> RoiAlign(const Tensor& x, const Tensor& rois, const Tensor& batch_indices,
                          const RoiAlignParams& params);

class RoiAlignKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit RoiAlignKernel(RoiAlignParams params) : params_(params) {}
  RoiAlignParams params_;
};

}  // namespace onnxgate::ref
