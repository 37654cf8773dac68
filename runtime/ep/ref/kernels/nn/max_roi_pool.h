// MaxRoiPool: max pooling of regions of interest of an [N, C, H, W] feature map into fixed-size
// [C, pooled_h, pooled_w] outputs, one per region, as Caffe's ROIPooling.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// rois [num_rois, 5] as (batch_index, x1, y1, x2, y2): the region, rounded to whole pixels
// after scaling, is split into pooled_h x pooled_w bins and each bin takes its maximum (0 for
// an empty bin), as Caffe's ROIPooling.
StatusOr<Tensor> MaxRoiPool(const Tensor& x, const Tensor& rois, int64_t pooled_h, int64_t pooled_w,
                            double spatial_scale);

class MaxRoiPoolKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  MaxRoiPoolKernel(int64_t pooled_h, int64_t pooled_w, double scale)
      : pooled_h_(pooled_h), pooled_w_(pooled_w), spatial_scale_(scale) {}
  int64_t pooled_h_;
  int64_t pooled_w_;
  double spatial_scale_;
};

}  // namespace onnxgate::ref
