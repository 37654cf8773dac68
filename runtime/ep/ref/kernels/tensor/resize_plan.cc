// Per-axis sampling plans of Resize and Upsample.
#include "runtime/ep/ref/kernels/tensor/resize_plan.h"

#include <algorithm>
#include <cmath>

namespace onnxgate::ref {

namespace {

// The input index nearest to coordinate x under `mode` (before clamping).
int64_t NearestIndex(double x, NearestMode mode, double scale) {
  const double floor = std::floor(x);
  if (x == floor) return static_cast<int64_t>(floor);
  const double frac = x - floor;
  switch (mode) {
    case NearestMode::kRoundPreferFloor:
      return static_cast<int64_t>(frac <= 0.5 ? floor : floor + 1);
    case NearestMode::kRoundPreferCeil: return static_cast<int64_t>(frac < 0.5 ? floor : floor + 1);
    case NearestMode::kFloor: return static_cast<int64_t>(floor);
    case NearestMode::kCeil: return static_cast<int64_t>(floor + 1);
    case NearestMode::kLegacy: return static_cast<int64_t>(scale < 1.0 ? floor + 1 : floor);
  }
  return static_cast<int64_t>(floor);
}

// Keys' cubic kernel with coefficient a at distance d.
double CubicKernel(double d, double a) {
  d = std::fabs(d);
  if (d <= 1.0) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2.0) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0.0;
}

// The antialiased taps of linear or cubic interpolation at coordinate x: the kernel stretched
// by 1 / min(scale, 1), read at the 2 * ceil(support / s) nearest input indices (ties to the
// lower ones), the weights normalised to sum to 1.
void AntialiasTaps(double x, double scale, const ResizeOptions& options, std::vector<int64_t>* taps,
                   std::vector<double>* weights) {
  const double s = std::min(scale, 1.0);
  const double support = options.mode == ResizeMode::kLinear ? 1.0 : 2.0;
  // base is the last index below x (x - 1 when x is an integer), ratio = x - base in (0, 1].
  const double floor = std::floor(x);
  const double base = x == floor ? floor - 1.0 : floor;
  const double ratio = x - base;
  const int64_t start = static_cast<int64_t>(std::floor(-support / s)) + 1;
  const int64_t count = 2 - 2 * start;
  double sum = 0.0;
  for (int64_t i = start; i < start + count; ++i) {
    const double d = (static_cast<double>(i) - ratio) * s;
    const double w = options.mode == ResizeMode::kLinear ? std::clamp(1.0 - std::fabs(d), 0.0, 1.0)
                                                         : CubicKernel(d, options.cubic_coeff_a);
    taps->push_back(static_cast<int64_t>(base) + i);
    weights->push_back(w);
    sum += w;
  }
  for (double& w : *weights) w /= sum;
}

}  // namespace

StatusOr<ResizeMode> ParseResizeMode(const std::string& name) {
  if (name == "nearest") return ResizeMode::kNearest;
  if (name == "linear") return ResizeMode::kLinear;
  if (name == "cubic") return ResizeMode::kCubic;
  return InvalidArgument("mode must be nearest, linear or cubic, got '" + name + "'");
}

StatusOr<CoordinateTransform> ParseCoordinateTransform(const std::string& name) {
  if (name == "half_pixel") return CoordinateTransform::kHalfPixel;
  if (name == "pytorch_half_pixel") return CoordinateTransform::kPytorchHalfPixel;
  if (name == "align_corners") return CoordinateTransform::kAlignCorners;
  if (name == "asymmetric") return CoordinateTransform::kAsymmetric;
  if (name == "tf_half_pixel_for_nn") return CoordinateTransform::kTfHalfPixelForNn;
  if (name == "tf_crop_and_resize") return CoordinateTransform::kTfCropAndResize;
  if (name == "half_pixel_symmetric") return CoordinateTransform::kHalfPixelSymmetric;
  return InvalidArgument(
      "coordinate_transformation_mode must be half_pixel, half_pixel_symmetric, "
      "pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn or "
      "tf_crop_and_resize, got '" +
      name + "'");
}

StatusOr<NearestMode> ParseNearestMode(const std::string& name) {
  if (name == "round_prefer_floor") return NearestMode::kRoundPreferFloor;
  if (name == "round_prefer_ceil") return NearestMode::kRoundPreferCeil;
  if (name == "floor") return NearestMode::kFloor;
  if (name == "ceil") return NearestMode::kCeil;
  return InvalidArgument(
      "nearest_mode must be round_prefer_floor, round_prefer_ceil, floor or ceil, got '" + name +
      "'");
}

double OriginalCoordinate(double x, const AxisResample& a, CoordinateTransform transform) {
  const double in = static_cast<double>(a.in);
  switch (transform) {
    case CoordinateTransform::kHalfPixel: return (x + 0.5) / a.scale - 0.5;
    case CoordinateTransform::kHalfPixelSymmetric: {
      // Centres the output on the input when `out` is a rounded in * scale.
      const double adjustment = static_cast<double>(a.out) / a.length_resized;
      const double offset = in / 2.0 * (1.0 - adjustment);
      return offset + (x + 0.5) / a.scale - 0.5;
    }
    case CoordinateTransform::kPytorchHalfPixel:
      return a.length_resized > 1.0 ? (x + 0.5) / a.scale - 0.5 : 0.0;
    case CoordinateTransform::kAlignCorners:
      return a.length_resized == 1.0 ? 0.0 : x * (in - 1.0) / (a.length_resized - 1.0);
    case CoordinateTransform::kAsymmetric: return x / a.scale;
    case CoordinateTransform::kTfHalfPixelForNn: return (x + 0.5) / a.scale;
    case CoordinateTransform::kTfCropAndResize:
      if (a.length_resized > 1.0) {
        return a.roi_start * (in - 1.0) +
               x * (a.roi_end - a.roi_start) * (in - 1.0) / (a.length_resized - 1.0);
      }
      return 0.5 * (a.roi_start + a.roi_end) * (in - 1.0);
  }
  return x;
}

void CubicWeights(double t, double a, double w[4]) {
  // Keys' kernel at distances 1 + t, t, 1 - t and 2 - t, written as the ONNX reference does so
  // that the rounding matches it.
  const double s = 1.0 - t;
  w[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  w[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  w[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
  w[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
}

std::vector<AxisSample> PlanAxis(const AxisResample& axis, const ResizeOptions& options) {
  std::vector<AxisSample> samples(static_cast<size_t>(axis.out));
  const int64_t last = axis.in - 1;
  for (int64_t o = 0; o < axis.out; ++o) {
    AxisSample& s = samples[static_cast<size_t>(o)];
    const double x = OriginalCoordinate(static_cast<double>(o), axis, options.transform);
    if (options.transform == CoordinateTransform::kTfCropAndResize &&
        (x < 0.0 || x > static_cast<double>(last))) {
      s.outside = true;
      continue;
    }
    if (options.mode == ResizeMode::kNearest) {
      s.index.push_back(std::clamp<int64_t>(NearestIndex(x, options.nearest, axis.scale), 0, last));
      s.weight.push_back(1.0);
      continue;
    }
    const double floor = std::floor(x);
    const double t = x - floor;
    const int64_t base = static_cast<int64_t>(floor);
    std::vector<int64_t> taps;
    if (options.antialias) {
      AntialiasTaps(x, axis.scale, options, &taps, &s.weight);
    } else if (options.mode == ResizeMode::kLinear) {
      taps = {base, base + 1};
      s.weight = {1.0 - t, t};
    } else {
      taps = {base - 1, base, base + 1, base + 2};
      double w[4];
      CubicWeights(t, options.cubic_coeff_a, w);
      s.weight.assign(w, w + 4);
    }
    if (options.exclude_outside) {
      // Taps beyond the input get no weight; the rest are renormalised to sum to 1.
      double sum = 0.0;
      for (size_t i = 0; i < taps.size(); ++i) {
        if (taps[i] < 0 || taps[i] > last) s.weight[i] = 0.0;
        sum += s.weight[i];
      }
      if (sum != 0.0) {
        for (double& w : s.weight) w /= sum;
      }
    }
    for (int64_t tap : taps) s.index.push_back(std::clamp<int64_t>(tap, 0, last));
  }
  return samples;
}

}  // namespace onnxgate::ref
