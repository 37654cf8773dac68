// MaxRoiPool, computed in double.
#include "runtime/ep/ref/kernels/nn/max_roi_pool.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/common/region_pooling.h"
#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

StatusOr<Tensor> MaxRoiPool(const Tensor& x, const Tensor& rois, int64_t pooled_h, int64_t pooled_w,
                            double spatial_scale) {
  ONNXGATE_RETURN_IF_ERROR(CheckFeatureMap(x));
  const Shape& xs = x.shape();
  const int64_t n = xs[0], channels = xs[1], height = xs[2], width = xs[3];
  if (rois.shape().rank() != 2 || rois.shape()[1] != 5) {
    return InvalidArgument("rois must be [num_rois, 5], got " + rois.shape().ToString());
  }
  const int64_t num_rois = rois.shape()[0];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> in, FloatsOf(x, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> r, FloatsOf(rois, "rois"));
  ONNXGATE_RETURN_IF_ERROR(CheckRoiValues(r, spatial_scale));
  std::vector<double> out(static_cast<size_t>(num_rois * channels * pooled_h * pooled_w), 0.0);
  for (int64_t k = 0; k < num_rois; ++k) {
    const double* roi = r.data() + k * 5;
    if (!(roi[0] >= 0 && roi[0] < static_cast<double>(n))) {
      return InvalidArgument("roi " + std::to_string(k) + " names batch " + std::to_string(roi[0]) +
                             ", outside the batch of " + std::to_string(n));
    }
    const int64_t b = static_cast<int64_t>(roi[0]);
    // Regions snap to whole pixels (rounding half away from zero) and cover at least one.
    const int64_t start_w = static_cast<int64_t>(std::round(roi[1] * spatial_scale));
    const int64_t start_h = static_cast<int64_t>(std::round(roi[2] * spatial_scale));
    const int64_t end_w = static_cast<int64_t>(std::round(roi[3] * spatial_scale));
    const int64_t end_h = static_cast<int64_t>(std::round(roi[4] * spatial_scale));
    const double bin_h = static_cast<double>(std::max<int64_t>(end_h - start_h + 1, 1)) /
                         static_cast<double>(pooled_h);
    const double bin_w = static_cast<double>(std::max<int64_t>(end_w - start_w + 1, 1)) /
                         static_cast<double>(pooled_w);
    for (int64_t ph = 0; ph < pooled_h; ++ph) {
      const int64_t h0 = std::clamp<int64_t>(
          static_cast<int64_t>(std::floor(static_cast<double>(ph) * bin_h)) + start_h, 0, height);
      const int64_t h1 = std::clamp<int64_t>(
          static_cast<int64_t>(std::ceil(static_cast<double>(ph + 1) * bin_h)) + start_h, 0,
          height);
      for (int64_t pw = 0; pw < pooled_w; ++pw) {
        const int64_t w0 = std::clamp<int64_t>(
            static_cast<int64_t>(std::floor(static_cast<double>(pw) * bin_w)) + start_w, 0, width);
        const int64_t w1 = std::clamp<int64_t>(
            static_cast<int64_t>(std::ceil(static_cast<double>(pw + 1) * bin_w)) + start_w, 0,
            width);
        for (int64_t c = 0; c < channels; ++c) {
          const double* plane = in.data() + (b * channels + c) * height * width;
          double value = 0.0;  // an empty bin pools to 0
          if (h1 > h0 && w1 > w0) {
            value = -std::numeric_limits<double>::infinity();
            for (int64_t y = h0; y < h1; ++y) {
              for (int64_t xx = w0; xx < w1; ++xx) value = std::max(value, plane[y * width + xx]);
            }
          }
          out[static_cast<size_t>(((k * channels + c) * pooled_h + ph) * pooled_w + pw)] = value;
        }
      }
    }
  }
  return RegionOutput(x.dtype(), Shape({num_rois, channels, pooled_h, pooled_w}), out);
}

StatusOr<std::unique_ptr<OpKernel>> MaxRoiPoolKernel::Create(const KernelInfo& info) {
  if (!info.has_attribute("pooled_shape")) {
    return InvalidArgument("the 'pooled_shape' attribute is required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> pooled, info.GetInts("pooled_shape"));
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1) {
    return InvalidArgument("pooled_shape must be two positive ints, got " + ListToString(pooled));
  }
  ONNXGATE_ASSIGN_OR_RETURN(float scale, info.GetFloat("spatial_scale", 1.0f));
  return std::unique_ptr<OpKernel>(new MaxRoiPoolKernel(pooled[0], pooled[1], scale));
}

Status MaxRoiPoolKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* rois, GetInput(ctx, 1, "rois"));
  if (rois->dtype() != x->dtype()) return InvalidArgument("rois must have X's type");
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, MaxRoiPool(*x, *rois, pooled_h_, pooled_w_, spatial_scale_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
