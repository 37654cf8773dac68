// The pure math of Resize and Upsample along one axis: the coordinate transformation from an
// output index to a fractional input coordinate, and the input taps (index, weight) that
// nearest, linear or cubic interpolation reads there. N-D resampling applies one axis at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate::ref {

enum class ResizeMode { kNearest, kLinear, kCubic };

enum class CoordinateTransform {
  kHalfPixel,
  kPytorchHalfPixel,
  kAlignCorners,
  kAsymmetric,
  kTfHalfPixelForNn,
  kTfCropAndResize,
  kHalfPixelSymmetric,  // Resize-19
};

enum class NearestMode {
  kRoundPreferFloor,
  kRoundPreferCeil,
  kFloor,
  kCeil,
  // Resize-10 and Upsample: floor when upsampling an axis, ceil when downsampling it, the
  // behaviour those versions' reference outputs show.
  kLegacy,
};

StatusOr<ResizeMode> ParseResizeMode(const std::string& name);
StatusOr<CoordinateTransform> ParseCoordinateTransform(const std::string& name);
StatusOr<NearestMode> ParseNearestMode(const std::string& name);

struct ResizeOptions {
  ResizeMode mode = ResizeMode::kNearest;
  CoordinateTransform transform = CoordinateTransform::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  // Resize-18: linear and cubic stretch their filter by 1 / scale when downsampling, so that
  // every input element contributes (the taps are renormalised to sum to 1).
  bool antialias = false;
};

// One axis of the resampling: `in` input and `out` output elements. `scale` is out / in as the
// op defines it (the given scale, or sizes / in); `length_resized` is the resized length the
// coordinate formulas divide by: the size when sizes were given, else in * scale (possibly
// fractional, as the ONNX reference computes it; with keep_aspect_ratio_policy it is
// in * scale while `out` is that rounded). roi_start / roi_end matter only for
// tf_crop_and_resize.
struct AxisResample {
  int64_t in = 0;
  int64_t out = 0;
  double scale = 1.0;
  double length_resized = 0.0;
  double roi_start = 0.0;
  double roi_end = 1.0;
};

// The input coordinate output index x maps to.
double OriginalCoordinate(double x, const AxisResample& axis, CoordinateTransform transform);

// What one output index reads: `outside` when tf_crop_and_resize maps it outside
// [0, in - 1] (the output is then the extrapolation value), else input indices (clamped into
// [0, in - 1], so reads past the edge repeat the edge) with their weights, in ascending order
// of the unclamped index.
struct AxisSample {
  bool outside = false;
  std::vector<int64_t> index;
  std::vector<double> weight;
};

// The samples of every output index of `axis`. `in` must be >= 1 when `out` >= 1.
std::vector<AxisSample> PlanAxis(const AxisResample& axis, const ResizeOptions& options);

// The 4 cubic convolution weights (Keys, with coefficient a) of the taps at floor(x) - 1 ..
// floor(x) + 2 for fractional part t = x - floor(x).
void CubicWeights(double t, double a, double weights[4]);

}  // namespace onnxgate::ref
