// GridSample: the coordinate handling (unnormalize, clip, reflect) and the three interpolations
// of PyTorch's grid sampler, computed in double.
#include "runtime/ep/ref/kernels/tensor/grid_sample.h"

#include <algorithm>
#include <cmath>

#include "runtime/ep/ref/kernels/tensor/indexing_util.h"
#include "runtime/ep/ref/kernels/tensor/resize_plan.h"

namespace onnxgate::ref {

namespace {

// Grid coordinate in [-1, 1] to a pixel coordinate: -1 and 1 are the centres of the corner
// pixels with align_corners, their outer edges without.
double Unnormalize(double coord, int64_t size, bool align_corners) {
  const double s = static_cast<double>(size);
  return align_corners ? (coord + 1.0) / 2.0 * (s - 1.0) : ((coord + 1.0) * s - 1.0) / 2.0;
}

double Clip(double coord, int64_t size) {
  return std::min(static_cast<double>(size - 1), std::max(coord, 0.0));
}

// Reflects coord into [twice_low / 2, twice_high / 2], bouncing as often as needed.
double Reflect(double coord, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0.0;
  const double min = twice_low / 2.0;
  const double span = (twice_high - twice_low) / 2.0;
  coord = std::fabs(coord - min);
  const double extra = std::fmod(coord, span);
  const double flips = std::floor(coord / span);
  return std::fmod(flips, 2.0) == 0.0 ? extra + min : span - extra + min;
}

// Applies the padding mode to a pixel coordinate (zeros leaves it, reads outside give 0).
double Pad(double coord, int64_t size, const GridSampleOptions& o) {
  if (o.padding == GridPadding::kBorder) return Clip(coord, size);
  if (o.padding == GridPadding::kReflection) {
    const double s = static_cast<double>(size);
    coord = o.align_corners ? Reflect(coord, 0.0, 2.0 * (s - 1.0))
                            : Reflect(coord, -1.0, 2.0 * s - 1.0);
    return Clip(coord, size);
  }
  return coord;
}

// A pixel coordinate as an index; -1 (outside every plane) for NaN and huge values, which a
// grid may hold and which have no integer conversion.
int64_t ToIndex(double v) { return (v > -1.0e15 && v < 1.0e15) ? static_cast<int64_t>(v) : -1; }

// One [H, W] plane with reads outside it returning 0.
struct Plane {
  const double* data;
  int64_t h, w;
  double At(double y, double x) const {
    const int64_t iy = ToIndex(y), ix = ToIndex(x);
    return (iy >= 0 && iy < h && ix >= 0 && ix < w) ? data[iy * w + ix] : 0.0;
  }
};

double SampleBilinear(const Plane& p, double gx, double gy, const GridSampleOptions& o) {
  const double x = Pad(Unnormalize(gx, p.w, o.align_corners), p.w, o);
  const double y = Pad(Unnormalize(gy, p.h, o.align_corners), p.h, o);
  const double x0 = std::floor(x), y0 = std::floor(y);
  const double tx = x - x0, ty = y - y0;
  return p.At(y0, x0) * (1 - tx) * (1 - ty) + p.At(y0, x0 + 1) * tx * (1 - ty) +
         p.At(y0 + 1, x0) * (1 - tx) * ty + p.At(y0 + 1, x0 + 1) * tx * ty;
}

double SampleNearest(const Plane& p, double gx, double gy, const GridSampleOptions& o) {
  const double x = Pad(Unnormalize(gx, p.w, o.align_corners), p.w, o);
  const double y = Pad(Unnormalize(gy, p.h, o.align_corners), p.h, o);
  // Ties round to even, as std::nearbyint does in PyTorch's sampler.
  return p.At(RoundHalfToEven(y), RoundHalfToEven(x));
}

double SampleBicubic(const Plane& p, double gx, double gy, const GridSampleOptions& o) {
  // Bicubic pads each of the 4 x 4 taps, not the sampling point.
  const double x = Unnormalize(gx, p.w, o.align_corners);
  const double y = Unnormalize(gy, p.h, o.align_corners);
  const double x0 = std::floor(x), y0 = std::floor(y);
  double wx[4], wy[4];
  CubicWeights(x - x0, -0.75, wx);
  CubicWeights(y - y0, -0.75, wy);
  auto tap = [&](double ty, double tx) {
    // The padded tap is truncated toward zero, as PyTorch's sampler does.
    return p.At(std::trunc(Pad(ty, p.h, o)), std::trunc(Pad(tx, p.w, o)));
  };
  double result = 0.0;
  for (int i = 0; i < 4; ++i) {
    double row = 0.0;
    for (int j = 0; j < 4; ++j) row += tap(y0 - 1 + i, x0 - 1 + j) * wx[j];
    result += row * wy[i];
  }
  return result;
}

}  // namespace

StatusOr<Tensor> GridSample(const Tensor& x, const Tensor& grid, const GridSampleOptions& options) {
  const Shape& xs = x.shape();
  const Shape& gs = grid.shape();
  if (xs.rank() != 4 || gs.rank() != 4 || gs[3] != 2 || gs[0] != xs[0]) {
    return InvalidArgument("X must be [N, C, H, W] and grid [N, H_out, W_out, 2], got X " +
                           xs.ToString() + " and grid " + gs.ToString());
  }
  const int64_t n = xs[0], c = xs[1], h = xs[2], w = xs[3], ho = gs[1], wo = gs[2];
  if ((h == 0 || w == 0) && ho * wo > 0) {
    return InvalidArgument("X " + xs.ToString() + " has no pixels to sample");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> g, FloatsOf(grid, "grid"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> in, FloatsOf(x, "X"));
  std::vector<double> out(static_cast<size_t>(n * c * ho * wo));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t ch = 0; ch < c; ++ch) {
      const Plane plane{in.data() + (b * c + ch) * h * w, h, w};
      double* dst = out.data() + (b * c + ch) * ho * wo;
      for (int64_t i = 0; i < ho * wo; ++i) {
        const double gx = g[static_cast<size_t>((b * ho * wo + i) * 2)];
        const double gy = g[static_cast<size_t>((b * ho * wo + i) * 2 + 1)];
        switch (options.mode) {
          case GridSampleMode::kBilinear:
            dst[i] = SampleBilinear(plane, gx, gy, options);
            break;
          case GridSampleMode::kNearest:
            dst[i] = SampleNearest(plane, gx, gy, options);
            break;
          case GridSampleMode::kBicubic:
            dst[i] = SampleBicubic(plane, gx, gy, options);
            break;
        }
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), Shape({n, c, ho, wo})));
  Status st = VisitFloatTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* o = y.mutable_data<T>();
    for (size_t i = 0; i < out.size(); ++i) o[i] = StoreAs<T>(out[i]);
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> GridSampleKernel::Create(const KernelInfo& info) {
  GridSampleOptions o;
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode", std::string("bilinear")));
  if (mode == "bilinear") {
    o.mode = GridSampleMode::kBilinear;
  } else if (mode == "nearest") {
    o.mode = GridSampleMode::kNearest;
  } else if (mode == "bicubic") {
    o.mode = GridSampleMode::kBicubic;
  } else {
    return InvalidArgument(info.Describe() + ": mode must be bilinear, nearest or bicubic, got '" +
                           mode + "'");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string padding,
                            info.GetString("padding_mode", std::string("zeros")));
  if (padding == "zeros") {
    o.padding = GridPadding::kZeros;
  } else if (padding == "border") {
    o.padding = GridPadding::kBorder;
  } else if (padding == "reflection") {
    o.padding = GridPadding::kReflection;
  } else {
    return InvalidArgument(info.Describe() +
                           ": padding_mode must be zeros, border or reflection, got '" + padding +
                           "'");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t align, info.GetInt("align_corners", 0));
  o.align_corners = align != 0;
  return std::unique_ptr<OpKernel>(new GridSampleKernel(info, o));
}

Status GridSampleKernel::Run(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* grid, GetInput(ctx, 1, "grid"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, GridSample(*x, *grid, options_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
