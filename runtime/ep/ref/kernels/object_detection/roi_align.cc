// RoiAlign, computed in double.
#include "runtime/ep/ref/kernels/object_detection/roi_align.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/ep/ref/kernels/common/region_pooling.h"
#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

namespace {

// The four corners one bilinear sample reads (flat indices into an [H, W] plane) and their
// weights; all weights 0 for a sample too far outside the map.
struct Sample {
  int64_t pos[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

Sample BilinearSample(double y, double x, int64_t height, int64_t width) {
  Sample s;
  if (height <= 0 || width <= 0) return s;
  if (y < -1.0 || y > static_cast<double>(height) || x < -1.0 || x > static_cast<double>(width)) {
    return s;
  }
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high, x_high;
  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
    y = static_cast<double>(y_low);
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
    x = static_cast<double>(x_low);
  } else {
    x_high = x_low + 1;
  }
  const double ly = y - static_cast<double>(y_low), lx = x - static_cast<double>(x_low);
  const double hy = 1.0 - ly, hx = 1.0 - lx;
  s.pos[0] = y_low * width + x_low;
  s.pos[1] = y_low * width + x_high;
  s.pos[2] = y_high * width + x_low;
  s.pos[3] = y_high * width + x_high;
  s.w[0] = hy * hx;
  s.w[1] = hy * lx;
  s.w[2] = ly * hx;
  s.w[3] = ly * lx;
  return s;
}

}  // namespace

StatusOr<Tensor> RoiAlign(const Tensor& x, const Tensor& rois, const Tensor& batch_indices,
                          const RoiAlignParams& p) {
  ONNXGATE_RETURN_IF_ERROR(CheckFeatureMap(x));
  const Shape& xs = x.shape();
  const int64_t n = xs[0], channels = xs[1], height = xs[2], width = xs[3];
  if (rois.shape().rank() != 2 || rois.shape()[1] != 4) {
    return InvalidArgument("rois must be [num_rois, 4], got " + rois.shape().ToString());
  }
  const int64_t num_rois = rois.shape()[0];
  if (batch_indices.dtype() != DataType::kInt64 || batch_indices.shape() != Shape({num_rois})) {
    return InvalidArgument("batch_indices must be int64 of shape [" + std::to_string(num_rois) +
                           "], got " + DataTypeShortName(batch_indices.dtype()) +
                           batch_indices.shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> in, FloatsOf(x, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> r, FloatsOf(rois, "rois"));
  ONNXGATE_RETURN_IF_ERROR(CheckRoiValues(r, p.spatial_scale));
  const int64_t* batch = batch_indices.data<int64_t>();
  const int64_t oh = p.output_height, ow = p.output_width;
  std::vector<double> out(static_cast<size_t>(num_rois * channels * oh * ow), 0.0);
  const double offset = p.half_pixel ? 0.5 : 0.0;
  for (int64_t k = 0; k < num_rois; ++k) {
    if (batch[k] < 0 || batch[k] >= n) {
      return InvalidArgument("batch_indices[" + std::to_string(k) +
                             "] = " + std::to_string(batch[k]) + " is outside the batch of " +
                             std::to_string(n));
    }
    const double* roi = r.data() + k * 4;
    const double start_w = roi[0] * p.spatial_scale - offset;
    const double start_h = roi[1] * p.spatial_scale - offset;
    double roi_w = roi[2] * p.spatial_scale - offset - start_w;
    double roi_h = roi[3] * p.spatial_scale - offset - start_h;
    if (!p.half_pixel) {
      // The legacy mode forces regions of at least one pixel.
      roi_w = std::max(roi_w, 1.0);
      roi_h = std::max(roi_h, 1.0);
    }
    const double bin_h = roi_h / static_cast<double>(oh);
    const double bin_w = roi_w / static_cast<double>(ow);
    // Adaptive grids take ceil(bin size) points per axis; an inverted region gets none.
    const int64_t grid_h = p.sampling_ratio > 0
                               ? p.sampling_ratio
                               : std::max<int64_t>(0, static_cast<int64_t>(std::ceil(bin_h)));
    const int64_t grid_w = p.sampling_ratio > 0
                               ? p.sampling_ratio
                               : std::max<int64_t>(0, static_cast<int64_t>(std::ceil(bin_w)));
    if (grid_h * grid_w > (int64_t{1} << 26)) {
      return InvalidArgument("roi " + std::to_string(k) + " needs a sampling grid of " +
                             std::to_string(grid_h) + " x " + std::to_string(grid_w) +
                             " points per bin, more than this kernel evaluates");
    }
    const double count = static_cast<double>(std::max<int64_t>(grid_h * grid_w, 1));
    for (int64_t ph = 0; ph < oh; ++ph) {
      for (int64_t pw = 0; pw < ow; ++pw) {
        std::vector<Sample> samples;
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const double y = start_h + static_cast<double>(ph) * bin_h +
                           (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            const double xx = start_w + static_cast<double>(pw) * bin_w +
                              (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
            samples.push_back(BilinearSample(y, xx, height, width));
          }
        }
        for (int64_t c = 0; c < channels; ++c) {
          const double* plane = in.data() + (batch[k] * channels + c) * height * width;
          double value = 0.0;
          bool first = true;
          for (const Sample& s : samples) {
            if (p.max_mode) {
              double m = s.w[0] * plane[s.pos[0]];
              for (int i = 1; i < 4; ++i) m = std::max(m, s.w[i] * plane[s.pos[i]]);
              value = first ? m : std::max(value, m);
              first = false;
            } else {
              for (int i = 0; i < 4; ++i) value += s.w[i] * plane[s.pos[i]];
            }
          }
          if (!p.max_mode) value /= count;
          out[static_cast<size_t>(((k * channels + c) * oh + ph) * ow + pw)] = value;
        }
      }
    }
  }
  return RegionOutput(x.dtype(), Shape({num_rois, channels, oh, ow}), out);
}

StatusOr<std::unique_ptr<OpKernel>> RoiAlignKernel::Create(const KernelInfo& info) {
  RoiAlignParams p;
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode", std::string("avg")));
  if (mode != "avg" && mode != "max") {
    return InvalidArgument("mode must be avg or max, got '" + mode + "'");
  }
  p.max_mode = mode == "max";
  if (info.since_version() >= 16) {
    ONNXGATE_ASSIGN_OR_RETURN(
        std::string transform,
        info.GetString("coordinate_transformation_mode", std::string("half_pixel")));
    if (transform != "half_pixel" && transform != "output_half_pixel") {
      return InvalidArgument(
          "coordinate_transformation_mode must be half_pixel or "
          "output_half_pixel, got '" +
          transform + "'");
    }
    p.half_pixel = transform == "half_pixel";
  } else if (info.has_attribute("coordinate_transformation_mode")) {
    return InvalidArgument("coordinate_transformation_mode exists from RoiAlign-16");
  }
  ONNXGATE_ASSIGN_OR_RETURN(p.output_height, info.GetInt("output_height", 1));
  ONNXGATE_ASSIGN_OR_RETURN(p.output_width, info.GetInt("output_width", 1));
  ONNXGATE_ASSIGN_OR_RETURN(p.sampling_ratio, info.GetInt("sampling_ratio", 0));
  ONNXGATE_ASSIGN_OR_RETURN(float scale, info.GetFloat("spatial_scale", 1.0f));
  p.spatial_scale = scale;
  if (p.output_height < 1 || p.output_width < 1 || p.sampling_ratio < 0) {
    return InvalidArgument(
        "output_height and output_width must be >= 1 and sampling_ratio "
        ">= 0");
  }
  return std::unique_ptr<OpKernel>(new RoiAlignKernel(p));
}

Status RoiAlignKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* rois, GetInput(ctx, 1, "rois"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* batch_indices, GetInput(ctx, 2, "batch_indices"));
  if (rois->dtype() != x->dtype()) {
    return InvalidArgument("rois must have X's type");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, RoiAlign(*x, *rois, *batch_indices, params_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
